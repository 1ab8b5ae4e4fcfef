/**
 * The ledger of the records pages: its loader, the currency tabs and the table.
 */
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { currencies } from "../../../shared/currency";
import { type LedgerPage, type WalletCurrency } from "../../../shared/contracts/wallet";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { Amount } from "./exchange-item";
import "./exchange.css";
import { formatDateTime } from "../../../shared/format";

export function ledgerLoader(currency: WalletCurrency, title: string) {
  return async ({ env, signal, request }: PageLoaderArgs) => {
    const raw = new URL(request.url).searchParams.get("page") ?? "1";
    const page = /^[1-9]\d{0,3}$/.test(raw) ? Number(raw) : 1;
    const ledger = await env.api(`/api/wallet/entries?currency=${currency}&page=${page}`, {
      signal,
      schema: import("../../../shared/contracts/wallet").then((m) => m.ledgerPageSchema),
    });
    return {
      ledger,
      meta: {
        title,
        description: `我的${currencies[currency]}明细：每一笔获得与使用的原因、关联内容和变动后的余额。`,
        noindex: true,
      },
    };
  };
}

export function RecordTabs({ active }: { active: WalletCurrency }) {
  const tabs = [
    { currency: "coin", to: "/my/exchange/record/coin", label: "金币明细" },
    { currency: "bishan", to: "/my/exchange/record/bishan", label: "笔山明细" },
  ] as const;
  return (
    <nav className="record-tabs" aria-label="明细类型">
      {tabs.map((t) => (
        <Link
          key={t.to}
          to={t.to}
          className={`record-tabs__tab${t.currency === active ? " is-active" : ""}`}
          aria-current={t.currency === active ? "page" : undefined}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}

function refText(line: LedgerPage["items"][number]): string {
  if (!line.ref) return line.note || "—";
  return line.ref.label ?? `${line.ref.type} #${line.ref.id}`;
}

export function LedgerTable({ ledger, basePath }: { ledger: LedgerPage; basePath: string }) {
  const name = currencies[ledger.currency];
  const pages = Math.max(1, Math.ceil(ledger.total / ledger.pageSize));
  if (ledger.total === 0) {
    return (
      <EmptyState
        glyph={ledger.currency === "coin" ? "金" : "山"}
        title={`还没有${name}记录`}
        action={
          <Link className="button button--primary" to="/my/exchange">
            {ledger.currency === "coin" ? "去签到领金币" : "用金币兑换笔山"}
          </Link>
        }
      >
        <p>
          {ledger.currency === "coin"
            ? "每日签到、学完课时、参加直播都能获得金币，每一笔都会记在这里。"
            : "付费购课或用金币兑换都能获得笔山，每一笔都会记在这里。"}
        </p>
      </EmptyState>
    );
  }
  return (
    <>
      <p className="record-summary">
        当前余额 <Amount value={ledger.balance} currency={ledger.currency} />
        ，共 {ledger.total} 条记录
      </p>
      <div className="record-table-wrap">
        <table className="account-table record-table">
          <thead>
            <tr>
              <th scope="col">时间</th>
              <th scope="col">原因</th>
              <th scope="col">关联内容</th>
              <th scope="col" className="record-table__num">
                变动
              </th>
              <th scope="col" className="record-table__num">
                余额
              </th>
            </tr>
          </thead>
          <tbody>
            {ledger.items.map((line) => (
              <tr key={line.id}>
                <td className="account-table__mono" data-label="时间">
                  {formatDateTime(line.createdAt)}
                </td>
                <td data-label="原因">{line.reasonName}</td>
                <td className="record-table__ref" data-label="关联内容">
                  {refText(line)}
                </td>
                <td className={`record-table__num ${line.amount > 0 ? "is-plus" : "is-minus"}`} data-label="变动">
                  {line.amount > 0 ? `+${line.amount}` : `−${-line.amount}`}
                </td>
                <td className="record-table__num" data-label="余额">
                  {line.balanceAfter}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 ? (
        <nav className="record-pager" aria-label="翻页">
          {ledger.page > 1 ? (
            <Link className="button button--small" to={`${basePath}?page=${ledger.page - 1}`}>
              上一页
            </Link>
          ) : null}
          <span>
            第 {ledger.page} / {pages} 页
          </span>
          {ledger.page < pages ? (
            <Link className="button button--small" to={`${basePath}?page=${ledger.page + 1}`}>
              下一页
            </Link>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}

export function LedgerPageView({ basePath }: { basePath: string }) {
  const { ledger } = useLoaderData<ReturnType<typeof ledgerLoader>>();
  return (
    <Page
      lead="每一笔获得与使用都逐条记录，余额为该笔变动后的结余。"
      actions={
        <Link className="button" to="/my/exchange">
          返回兑换商城
        </Link>
      }
    >
      <RecordTabs active={ledger.currency} />
      <LedgerTable ledger={ledger} basePath={basePath} />
    </Page>
  );
}
