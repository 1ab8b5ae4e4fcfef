/**
 * 兑换记录: the coin ledger behind its tabs, and the things this learner redeemed — for physical
 * goods where they are (待发货 → 已发货 → 已签收) with the carrier and tracking number, and the
 * button to confirm receipt once shipped.
 */
import { useState } from "react";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { currencies } from "../../../shared/currency";
import { deliveryLabels, type MyRedemption } from "../../../shared/contracts/staff-commerce";
import { formatDateTime } from "../../../shared/format";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { LedgerTable, ledgerLoader, RecordTabs } from "./exchange-ledger";
import { useMutation } from "../../lib/mutation";

const ledger = ledgerLoader("coin", "兑换记录");

export async function loader(args: PageLoaderArgs) {
  const raw = new URL(args.request.url).searchParams.get("items") ?? "1";
  const page = /^[1-9]\d{0,3}$/.test(raw) ? Number(raw) : 1;
  const [coin, redemptions] = await Promise.all([
    ledger(args),
    args.env.api(`/api/wallet/redemptions?page=${page}`, {
      signal: args.signal,
      schema: import("../../../shared/contracts/staff-commerce").then((m) => m.myRedemptionPageSchema),
    }),
  ]);
  return { ...coin, redemptions };
}

function Redemption({ initial }: { initial: MyRedemption }) {
  const [r, setR] = useState(initial);
  const confirmation = useMutation();
  const busy = confirmation.busy;
  const problem = confirmation.problem?.message ?? null;
  const confirm = () =>
    confirmation.send(`/api/wallet/redemptions/${r.id}/confirm`, {
      schema: import("../../../shared/contracts/staff-commerce").then((m) => m.myRedemptionSchema),
      onSuccess: setR,
    });
  const delivery = r.deliveryState ? deliveryLabels[r.deliveryState] : null;
  return (
    <li className="card redemption" data-testid={`redemption-${r.id}`}>
      <div className="redemption__head">
        <h3 className="redemption__title">{r.title}</h3>
        <span className={`redemption__state${r.state === "failed" ? " is-failed" : ""}`}>
          {delivery ?? r.stateLabel}
        </span>
      </div>
      <p className="redemption__meta">
        {formatDateTime(r.createdAt)} · {r.price} {currencies[r.currency]}
        {r.failure ? ` · ${r.failure}` : ""}
      </p>
      {r.address ? (
        <p className="redemption__meta">
          寄往：{r.address.recipient}，{r.address.region} {r.address.detail}
        </p>
      ) : null}
      {r.trackingNo ? (
        <p className="redemption__tracking">
          {r.carrier} 运单号 <strong>{r.trackingNo}</strong>
          {r.shippedAt ? `（${formatDateTime(r.shippedAt)} 发出）` : ""}
        </p>
      ) : null}
      {r.deliveryState === "shipped" ? (
        <button type="button" className="button button--small" onClick={confirm} disabled={busy}>
          {busy ? "确认中…" : "确认收货"}
        </button>
      ) : null}
      {problem ? (
        <p className="form-field__error" role="alert">
          {problem}
        </p>
      ) : null}
    </li>
  );
}

export default function ExchangeRecordPage() {
  const { ledger: coin, redemptions } = useLoaderData<typeof loader>();
  const pages = Math.max(1, Math.ceil(redemptions.total / redemptions.pageSize));
  return (
    <Page
      lead="兑换的物品和每一笔金币、笔山的获得与使用都记录在这里。"
      actions={
        <Link className="button" to="/my/exchange">
          返回兑换商城
        </Link>
      }
    >
      <section className="redemptions" aria-labelledby="redemptions-title">
        <h2 id="redemptions-title" className="redemptions__title">
          兑换的物品
        </h2>
        {redemptions.total === 0 ? (
          <p className="redemptions__empty">还没有兑换过物品，去兑换商城看看吧。</p>
        ) : (
          <ul className="redemptions__list">
            {redemptions.items.map((r) => (
              <Redemption key={r.id} initial={r} />
            ))}
          </ul>
        )}
        {pages > 1 ? (
          <nav className="record-pager" aria-label="兑换物品翻页">
            {redemptions.page > 1 ? (
              <Link className="button button--small" to={`?items=${redemptions.page - 1}`}>
                上一页
              </Link>
            ) : null}
            <span>
              第 {redemptions.page} / {pages} 页
            </span>
            {redemptions.page < pages ? (
              <Link className="button button--small" to={`?items=${redemptions.page + 1}`}>
                下一页
              </Link>
            ) : null}
          </nav>
        ) : null}
      </section>
      <RecordTabs active="coin" />
      <LedgerTable ledger={coin} basePath="/my/exchange/record/coin" />
    </Page>
  );
}
