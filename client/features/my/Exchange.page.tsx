/**
 * 兑换商城: the learner's 金币 and 笔山 with the daily check-in, the one-way exchange of coins for
 * bishan (with a live preview), and the mall's items, each leading to its detail page.
 */
import { type FormEvent, useState } from "react";
import { coinExchangeRule } from "../../../shared/action-rules";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import {
  type Balances,
  type CheckInResult,
  exchangeInputSchema,
  exchangeResultSchema,
  type Wallet,
} from "../../../shared/contracts/wallet";
import { FormAlert } from "../../components/form/FormAlert";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { localProblem, useMutation } from "../../lib/mutation";
import { Amount, ExchangeCard } from "./exchange-item";

export async function loader({ env, signal }: PageLoaderArgs) {
  const [wallet, mall] = await Promise.all([
    env.api("/api/wallet", { signal, schema: import("../../../shared/contracts/wallet").then((m) => m.walletSchema) }),
    env.api("/api/wallet/items", {
      signal,
      schema: import("../../../shared/contracts/wallet").then((m) => m.exchangeItemListSchema),
    }),
  ]);
  return {
    wallet,
    mall,
    meta: {
      title: "兑换商城",
      description: "用学习获得的金币和笔山兑换文房用品、书籍、优惠券和课程；每日签到领金币，金币可兑换笔山。",
      noindex: true,
    },
  };
}

function CheckIn({ initial, onChecked }: { initial: boolean; onChecked: (result: CheckInResult) => void }) {
  const [done, setDone] = useState(initial);
  const [result, setResult] = useState<CheckInResult | null>(null);
  const { busy, problem, send } = useMutation();
  const checkIn = () =>
    send("/api/wallet/check-in", {
      body: {},
      schema: import("../../../shared/contracts/wallet").then((m) => m.checkInResultSchema),
      onSuccess: (res) => {
        setResult(res);
        setDone(true);
        onChecked(res);
      },
    });
  return (
    <div className="check-in">
      <button type="button" className="button button--primary" onClick={checkIn} disabled={busy || done}>
        {busy ? "签到中…" : done ? "今日已签到" : "签到领金币"}
      </button>
      {result ? (
        <p className="check-in__message" role="status">
          {result.message}
        </p>
      ) : null}
      <FormAlert problem={problem} />
    </div>
  );
}

function ExchangeForm({
  wallet,
  balances,
  onBalances,
}: {
  wallet: Wallet;
  balances: Balances;
  onBalances: (b: Balances) => void;
}) {
  const [value, setValue] = useState("1");
  const [message, setMessage] = useState<string | null>(null);
  const { busy, problem, setProblem, send } = useMutation({ idempotent: true });
  const rate = wallet.rate.coinsPerBishan;
  const bishan = /^\d{1,3}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  const cost = Number.isInteger(bishan) ? bishan * rate : null;
  const most = Math.min(wallet.rate.maxBishanPerExchange, Math.floor(balances.coin / rate));
  // Not even one bishan's worth: the button stays disabled with the reason beside it.
  const canAny = coinExchangeRule({ coins: balances.coin, bishan: 1, coinsPerBishan: rate });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setMessage(null);
    const parsed = exchangeInputSchema.safeParse({ bishan: Number.isNaN(bishan) ? value : bishan });
    if (!parsed.success) {
      setProblem(localProblem(parsed.error.issues[0]?.message ?? "请输入要兑换的笔山数量"));
      return;
    }
    const rule = coinExchangeRule({ coins: balances.coin, bishan: parsed.data.bishan, coinsPerBishan: rate });
    if (!rule.ok) {
      setProblem(localProblem(rule.reason));
      return;
    }
    await send("/api/wallet/exchange", {
      body: parsed.data,
      schema: exchangeResultSchema,
      onSuccess: (res) => {
        setMessage(res.message);
        onBalances(res.balances);
      },
    });
  }

  return (
    <form className="card exchange-form" onSubmit={submit} noValidate>
      <label className="exchange-form__label" htmlFor="exchange-bishan">
        兑换笔山数量
      </label>
      <div className="exchange-form__row">
        <input
          id="exchange-bishan"
          className="form-field__control exchange-form__input"
          inputMode="numeric"
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setMessage(null);
          }}
          aria-describedby="exchange-preview"
        />
        <span>个笔山</span>
        <button
          type="submit"
          className="button button--primary"
          disabled={busy || !canAny.ok}
          aria-describedby={canAny.ok ? undefined : "exchange-why"}
        >
          {busy ? "兑换中…" : "确认兑换"}
        </button>
      </div>
      {canAny.ok ? null : (
        <p className="action-reason" id="exchange-why">
          {canAny.reason}，每日签到和学习都能获得金币。
        </p>
      )}
      <p id="exchange-preview" className="exchange-form__preview" aria-live="polite">
        {cost !== null && bishan >= 1 ? `将消耗 ${cost.toLocaleString("zh-CN")} 金币` : "请输入 1–100 的整数"}
        <span className="exchange-form__hint">
          {rate} 金币 = 1 笔山，单向兑换；当前最多可兑 {Math.max(0, most)} 个
        </span>
      </p>
      {message ? (
        <p className="form-success" role="status">
          {message}
        </p>
      ) : null}
      <FormAlert problem={problem} />
    </form>
  );
}

export default function ExchangePage() {
  const { wallet, mall } = useLoaderData<typeof loader>();
  const [balances, setBalances] = useState<Balances>(wallet.balances);
  const [today, setToday] = useState(wallet.today);
  const checkedIn = (result: CheckInResult) => {
    setBalances((b) => ({ ...b, coin: result.balance }));
    if (result.earned > 0) {
      setToday((rules) =>
        rules.map((r) => (r.rule === "daily_check_in" ? { ...r, earned: r.earned + result.earned } : r)),
      );
    }
  };
  return (
    <Page
      lead="用学习获得的金币和笔山兑换文房用品、书籍、优惠券和课程。"
      actions={
        <Link className="button" to="/my/exchange/record">
          兑换记录
        </Link>
      }
    >
      <section className="wallet-panel" aria-label="我的金币与笔山">
        <div className="card wallet-balance wallet-balance--coin">
          <span className="seal" aria-hidden="true">
            金
          </span>
          <div>
            <p className="wallet-balance__label">金币</p>
            <p className="wallet-balance__value" data-testid="coin-balance">
              {balances.coin.toLocaleString("zh-CN")}
            </p>
            <Link className="text-link" to="/my/exchange/record/coin">
              金币明细
            </Link>
          </div>
          <CheckIn initial={wallet.checkedInToday} onChecked={checkedIn} />
        </div>
        <div className="card wallet-balance wallet-balance--bishan">
          <span className="seal seal--ink" aria-hidden="true">
            山
          </span>
          <div>
            <p className="wallet-balance__label">笔山</p>
            <p className="wallet-balance__value" data-testid="bishan-balance">
              {balances.bishan.toLocaleString("zh-CN")}
            </p>
            <Link className="text-link" to="/my/exchange/record/bishan">
              笔山明细
            </Link>
          </div>
        </div>
      </section>

      <section className="wallet-earn" aria-labelledby="earn-title">
        <h2 id="earn-title" className="section-title">
          今日学习奖励
        </h2>
        <ul className="earn-list">
          {today.map((rule) => (
            <li key={rule.rule} className={rule.earned >= rule.dailyCap ? "is-full" : undefined}>
              <span className="earn-list__name">{rule.name}</span>
              <span className="earn-list__amount">每次 +{rule.amount}</span>
              <span className="earn-list__progress">
                今日 {rule.earned}/{rule.dailyCap}
              </span>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="exchange-title">
        <h2 id="exchange-title" className="section-title">
          金币兑换笔山
        </h2>
        <ExchangeForm wallet={wallet} balances={balances} onBalances={setBalances} />
      </section>

      <section aria-labelledby="mall-title">
        <h2 id="mall-title" className="section-title">
          兑换好物
        </h2>
        {mall.items.length ? (
          <ul className="exchange-grid">
            {mall.items.map((item) => (
              <li key={item.id}>
                <ExchangeCard item={item} />
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState glyph="换" title="兑换商城正在上新">
            <p>新的文房用品、书籍和课程即将上架，先去学习攒些金币吧。</p>
            <p>
              当前余额：
              <Amount value={balances.coin} currency="coin" />、
              <Amount value={balances.bishan} currency="bishan" />
            </p>
          </EmptyState>
        )}
      </section>
    </Page>
  );
}
