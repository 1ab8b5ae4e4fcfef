/**
 * 兑换详情 (/my/exchange/detail?id=): one mall item, what it costs and what is left, and its
 * redemption — a delivery address for physical goods (one of the learner's saved addresses, or
 * typed in), a confirmation dialog, then the result (a failed fulfilment says the currency came back).
 */
import { type FormEvent, useState } from "react";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { currencies } from "../../../shared/currency";
import {
  type AddressInput,
  addressSchema,
  exchangeItemKinds,
  type RedeemResult,
  redeemResultSchema,
} from "../../../shared/contracts/wallet";
import { AppError, NOT_FOUND_MESSAGE } from "../../../shared/errors";
import { coverSizes, coverUrl } from "../../../shared/media";
import type { Address } from "../../../shared/contracts/orders";
import {
  type AddressChoice,
  SavedAddresses,
  addressLine,
  firstChoice,
} from "../../components/commerce/saved-addresses";
import { ADDRESS_FIELDS, emptyAddress } from "../../components/commerce/address-fields";
import { FormAlert } from "../../components/form/FormAlert";
import { Page } from "../../components/Page";
import { LazyImage } from "../../lib/lazy-image";
import { Modal } from "../../lib/modal";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { Amount, blockedReason, kindTones } from "./exchange-item";
import { localProblem, useMutation } from "../../lib/mutation";

export async function loader({ env, signal, request }: PageLoaderArgs) {
  const id = new URL(request.url).searchParams.get("id") ?? "";
  if (!/^[1-9]\d{0,8}$/.test(id)) throw new AppError(404, NOT_FOUND_MESSAGE);
  const detail = await env.api(`/api/wallet/items/${id}`, {
    signal,
    schema: import("../../../shared/contracts/wallet").then((m) => m.exchangeItemDetailSchema),
  });
  const { item } = detail;
  // Physical goods may go to an address of the learner's address book; without it, one is typed.
  const addresses: Address[] = item.physical
    ? await env
        .api("/api/orders/addresses", {
          signal,
          schema: import("../../../shared/contracts/orders").then((m) => m.addressListSchema),
        })
        .then((r) => r.items)
        .catch(() => [])
    : [];
  const image = coverUrl(item.coverChar, kindTones[item.kind], "square");
  return {
    ...detail,
    addresses,
    meta: {
      title: item.title,
      description: item.summary || `${exchangeItemKinds[item.kind]}，${item.price} ${currencies[item.currency]}兑换。`,
      image,
      type: "product",
      canonicalSearch: `?id=${item.id}`,
      noindex: true,
      jsonLd: {
        "@type": "Product",
        name: item.title,
        description: item.summary || item.title,
        image,
        category: exchangeItemKinds[item.kind],
      },
    },
  };
}

/** The exchange's contract: a shorter region, and the parcel's 收件人. */
const addressFields = ADDRESS_FIELDS.map((f) =>
  f.name === "recipient"
    ? { ...f, label: "收件人" }
    : f.name === "region"
      ? { ...f, max: 40 }
      : f.name === "detail"
        ? { ...f, placeholder: "街道、门牌号" }
        : f,
);

export default function ExchangeDetailPage() {
  const loaded = useLoaderData<typeof loader>();
  const [item, setItem] = useState(loaded.item);
  const [balances, setBalances] = useState(loaded.balances);
  const [address, setAddress] = useState(emptyAddress);
  const [choice, setChoice] = useState<AddressChoice>(() => firstChoice(loaded.addresses));
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  /** The redemption being confirmed: null = no dialog; `to` is absent for goods sent by no post. */
  const [confirming, setConfirming] = useState<{
    to?: { body: { address: AddressInput } | { addressId: number }; line: string };
  } | null>(null);
  const [result, setResult] = useState<RedeemResult | null>(null);
  const { busy, problem, setProblem, send } = useMutation({ idempotent: true });
  const size = coverSizes.square;
  const name = currencies[item.currency];
  const balance = balances?.[item.currency] ?? 0;
  const blocked = blockedReason(item);
  const short = balance < item.price;

  function askToConfirm(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    setResult(null);
    if (!item.physical) {
      setConfirming({});
      return;
    }
    if (choice !== "new") {
      const saved = loaded.addresses.find((a) => a.id === choice);
      if (saved) {
        setConfirming({ to: { body: { addressId: saved.id }, line: addressLine(saved) } });
        return;
      }
    }
    const parsed = addressSchema.safeParse(address);
    if (!parsed.success) {
      const errors: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? "");
        if (key && !errors[key]) errors[key] = issue.message;
      }
      setFieldErrors(errors);
      setProblem(localProblem("请检查收货地址"));
      return;
    }
    setFieldErrors({});
    setConfirming({ to: { body: { address: parsed.data }, line: addressLine(parsed.data) } });
  }

  async function redeem() {
    const body = confirming?.to?.body ?? {};
    setConfirming(null);
    await send(`/api/wallet/items/${item.id}/redeem`, {
      body,
      schema: redeemResultSchema,
      onSuccess: (res) => {
        setResult(res);
        setBalances(res.balances);
        if (res.redemption.state !== "failed") {
          setItem((i) => ({ ...i, stock: Math.max(0, i.stock - 1), redeemed: i.redeemed + 1 }));
        }
      },
    });
  }

  return (
    <Page
      title={item.title}
      actions={
        <Link className="button" to="/my/exchange">
          返回兑换商城
        </Link>
      }
    >
      <div className="exchange-detail">
        <div className="exchange-detail__cover">
          <LazyImage
            src={coverUrl(item.coverChar, kindTones[item.kind], "square")}
            alt={`${item.title}图片`}
            width={size.width}
            height={size.height}
          />
        </div>
        <div className="exchange-detail__body">
          <p className="exchange-detail__kind">{exchangeItemKinds[item.kind]}</p>
          {item.summary ? <p className="exchange-detail__summary">{item.summary}</p> : null}
          <dl className="card exchange-detail__facts">
            <div>
              <dt>所需{name}</dt>
              <dd>
                <Amount value={item.price} currency={item.currency} />
              </dd>
            </div>
            <div>
              <dt>库存</dt>
              <dd data-testid="item-stock">{item.stock > 0 ? item.stock : "已兑完"}</dd>
            </div>
            <div>
              <dt>每人限兑</dt>
              <dd>
                {item.perUserLimit} 件（已兑 {item.redeemed} 件）
              </dd>
            </div>
            <div>
              <dt>我的{name}</dt>
              <dd data-testid="my-balance">
                <Amount value={balance} currency={item.currency} />
              </dd>
            </div>
          </dl>
          {item.kind === "coupon" ? (
            <p className="exchange-detail__note">兑换后优惠券放入“我的卡包”，下单时可用。</p>
          ) : null}
          {item.kind === "course" ? (
            <p className="exchange-detail__note">兑换后课程加入“我的课程”，立即可学。</p>
          ) : null}

          <form className="exchange-redeem" onSubmit={askToConfirm} noValidate>
            {item.physical && !blocked && loaded.addresses.length > 0 ? (
              <SavedAddresses addresses={loaded.addresses} chosen={choice} onChoose={setChoice} />
            ) : null}
            {item.physical && !blocked && choice === "new" ? (
              <fieldset className="exchange-address">
                <legend>{loaded.addresses.length > 0 ? "新的收货地址" : "收货地址"}</legend>
                {addressFields.map((f) => (
                  <div className="form-field" key={f.name}>
                    <label className="form-field__label" htmlFor={`address-${f.name}`}>
                      {f.label}
                    </label>
                    <input
                      id={`address-${f.name}`}
                      className="form-field__control"
                      type={f.type ?? "text"}
                      autoComplete={f.autoComplete}
                      value={address[f.name]}
                      placeholder={f.placeholder}
                      maxLength={f.max}
                      aria-invalid={fieldErrors[f.name] ? true : undefined}
                      aria-describedby={fieldErrors[f.name] ? `address-${f.name}-error` : undefined}
                      onChange={(e) => {
                        setAddress((a) => ({ ...a, [f.name]: e.target.value }));
                        setFieldErrors(({ [f.name]: _fixed, ...rest }) => rest);
                      }}
                    />
                    {fieldErrors[f.name] ? (
                      <p className="form-field__error" id={`address-${f.name}-error`}>
                        {fieldErrors[f.name]}
                      </p>
                    ) : null}
                  </div>
                ))}
              </fieldset>
            ) : null}
            <FormAlert problem={problem} />
            {result ? (
              <p
                className={result.redemption.state === "failed" ? "notice notice--warning" : "form-success"}
                role="status"
              >
                {result.message}
                {result.redemption.state === "completed" ? (
                  <>
                    {" "}
                    <Link className="text-link" to={`/my/exchange/record/${item.currency}`}>
                      查看{name}明细
                    </Link>
                  </>
                ) : null}
              </p>
            ) : null}
            <div className="exchange-redeem__actions">
              <button type="submit" className="button button--primary" disabled={busy || Boolean(blocked) || short}>
                {busy ? "兑换中…" : (blocked ?? (short ? `${name}不足` : "立即兑换"))}
              </button>
              {short && !blocked ? (
                <span className="exchange-redeem__hint">
                  还差 {item.price - balance} {name}
                  {item.currency === "bishan" ? "，可用金币兑换笔山" : "，每日签到和学习都能获得金币"}
                </span>
              ) : null}
            </div>
          </form>
        </div>
      </div>

      <Modal
        open={confirming !== null}
        onClose={() => setConfirming(null)}
        title="确认兑换"
        className="exchange-confirm"
      >
        <p>
          确认用 <Amount value={item.price} currency={item.currency} />
          兑换“{item.title}”吗？
        </p>
        {confirming?.to ? <p>寄往：{confirming.to.line}</p> : null}
        <p className="exchange-confirm__hint">兑换后不可撤销；若发放失败，{name}会自动退回。</p>
        <div className="form__actions">
          <button type="button" className="button" onClick={() => setConfirming(null)}>
            再想想
          </button>
          <button type="button" className="button button--primary" onClick={redeem}>
            确认兑换
          </button>
        </div>
      </Modal>
    </Page>
  );
}
