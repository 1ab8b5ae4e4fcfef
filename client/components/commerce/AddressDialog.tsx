/**
 * The shipping address dialog of buying physical goods (pick a saved address or add one, then
 * submit the order); loaded the first time it opens (decision 050).
 */
import { type FormEvent, useEffect, useState } from "react";
import type { Address } from "../../../shared/contracts/orders";
import { checkoutRule } from "../../../shared/action-rules";
import { FormAlert } from "../form/FormAlert";
import { describeProblem, type Problem } from "../../lib/problem";
import { browserApi } from "../../lib/api";
import { Modal } from "../../lib/modal";
import { ADDRESS_FIELDS, emptyAddress } from "./address-fields";
import type { BuyItem } from "./buy-item";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const ordersContract = () => import("../../../shared/contracts/orders");

export function AddressDialog({
  open,
  item,
  busy,
  problem,
  onClose,
  onChosen,
}: {
  open: boolean;
  item: BuyItem;
  busy: boolean;
  problem: Problem | null;
  onClose: () => void;
  onChosen: (addressId: number) => void;
}) {
  const [addresses, setAddresses] = useState<Address[] | null>(null);
  const [loadProblem, setLoadProblem] = useState<Problem | null>(null);
  const [chosen, setChosen] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const checkout = checkoutRule({ addressChosen: chosen !== null, editing: adding });
  const [draft, setDraft] = useState(emptyAddress);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [saveProblem, setSaveProblem] = useState<Problem | null>(null);

  useEffect(() => {
    if (!open) return;
    let live = true;
    browserApi("/api/orders/addresses", { schema: ordersContract().then((m) => m.addressListSchema) })
      .then((res) => {
        if (!live) return;
        setAddresses(res.items);
        setChosen(res.items[0]?.id ?? null);
        setAdding(res.items.length === 0);
      })
      .catch((err: unknown) => {
        if (live) setLoadProblem(describeProblem(err));
      });
    return () => {
      live = false;
    };
  }, [open]);

  async function save(event: FormEvent) {
    event.preventDefault();
    const { addressInputSchema } = await ordersContract();
    const parsed = addressInputSchema.safeParse(draft);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? "");
        if (key && !next[key]) next[key] = issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setSaving(true);
    setSaveProblem(null);
    try {
      const { address } = await browserApi("/api/orders/addresses", {
        method: "POST",
        body: parsed.data,
        schema: import("./address-answer").then((m) => m.addressAnswerSchema),
      });
      setAddresses((list) => [address, ...(list ?? [])]);
      setChosen(address.id);
      setAdding(false);
      setDraft(emptyAddress);
    } catch (err) {
      setSaveProblem(describeProblem(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal open={open} onClose={onClose} title="选择收货地址" className="address-dialog">
      <p className="address-dialog__item">购买：{item.label}</p>
      <FormAlert problem={loadProblem} />
      {addresses === null && !loadProblem ? <p role="status">正在加载收货地址…</p> : null}
      {addresses && addresses.length > 0 ? (
        <fieldset className="address-dialog__list">
          <legend className="visually-hidden">收货地址</legend>
          {addresses.map((a) => (
            <label key={a.id} className={`pay-method${chosen === a.id ? " is-selected" : ""}`}>
              <input type="radio" name="address" checked={chosen === a.id} onChange={() => setChosen(a.id)} />
              <span>
                {a.recipient} {a.phone}
                <br />
                {a.region} {a.detail}
              </span>
            </label>
          ))}
        </fieldset>
      ) : null}
      {adding ? (
        <form className="address-dialog__form" onSubmit={save} noValidate>
          {ADDRESS_FIELDS.map((f) => (
            <div className="form-field" key={f.name}>
              <label className="form-field__label" htmlFor={`buy-address-${f.name}`}>
                {f.label}
              </label>
              <input
                id={`buy-address-${f.name}`}
                className="form-field__control"
                type={f.type ?? "text"}
                autoComplete={f.autoComplete}
                value={draft[f.name]}
                placeholder={f.placeholder}
                maxLength={f.max}
                aria-invalid={errors[f.name] ? true : undefined}
                aria-describedby={errors[f.name] ? `buy-address-${f.name}-error` : undefined}
                onChange={(e) => setDraft((d) => ({ ...d, [f.name]: e.target.value }))}
              />
              {errors[f.name] ? (
                <p className="form-field__error" id={`buy-address-${f.name}-error`}>
                  {errors[f.name]}
                </p>
              ) : null}
            </div>
          ))}
          <FormAlert problem={saveProblem} />
          <div className="form__actions">
            {addresses && addresses.length > 0 ? (
              <button type="button" className="button" onClick={() => setAdding(false)}>
                取消
              </button>
            ) : null}
            <button type="submit" className="button" disabled={saving}>
              {saving ? "正在保存…" : "保存地址"}
            </button>
          </div>
        </form>
      ) : addresses ? (
        <button type="button" className="button button--small" onClick={() => setAdding(true)}>
          新增收货地址
        </button>
      ) : null}
      <FormAlert problem={problem} />
      <div className="form__actions address-dialog__actions">
        <button type="button" className="button" onClick={onClose}>
          再想想
        </button>
        <button
          type="button"
          className="button button--primary"
          disabled={busy || !checkout.ok}
          aria-describedby={checkout.ok ? undefined : "buy-checkout-why"}
          onClick={() => chosen !== null && onChosen(chosen)}
        >
          {busy ? "正在下单…" : "提交订单"}
        </button>
      </div>
      {checkout.ok || addresses === null ? null : (
        <p className="action-reason address-dialog__why" id="buy-checkout-why">
          {checkout.reason}
        </p>
      )}
    </Modal>
  );
}
