/**
 * What an operator does with one order: ship it, review its return, ask the provider again for a
 * refused refund, refund by hand. Each is a small form that checks its input with the shared
 * schema, sends it once (money moves with an Idempotency-Key) and reloads the order.
 */
import { createContext, useContext, useId, useState, type FormEvent, type ReactNode } from "react";
import { useRevalidator } from "react-router-dom";
import type { z } from "zod";
import {
  adminApproveReturnSchema,
  adminOrderDetailSchema,
  adminRefundInputSchema,
  adminRejectReturnSchema,
  adminRetryRefundSchema,
  adminShipSchema,
  type AdminOrderDetail,
} from "../../../../shared/contracts/admin-orders";
import { formatMoney } from "../../../../shared/money";
import { FormAlert } from "../../../components/form/FormAlert";
import { useMutation } from "../../../lib/mutation";

export const CARRIERS = ["顺丰速运", "中通快递", "圆通速递", "韵达快递", "申通快递", "京东物流", "EMS", "邮政快递包裹"];

/**
 * What the last action did. It is said by the desk, not by the form: a form that succeeds usually
 * disappears with the order's new state (a shipped order has no 发货 form), and its confirmation
 * must outlive it.
 */
const DeskDone = createContext<(message: string | null) => void>(() => {});

/**
 * One form's state: field errors, the call's refusal, busy; what was done goes to the desk. The
 * form's POST answers with the order; money moves carry an Idempotency-Key (`idempotent`).
 */
function useDeskForm({ idempotent = false } = {}) {
  const setDone = useContext(DeskDone);
  const revalidator = useRevalidator();
  // A money move may first ask for the password or a code (step-up), then goes again.
  const form = useMutation({ idempotent });
  async function run<S extends z.ZodType>(schema: S, values: unknown, path: string, ok: string) {
    if (form.busy) return;
    setDone(null);
    await form.submit(schema, values, (body) => form.request(path, { body, schema: adminOrderDetailSchema }), {
      onSuccess: async () => {
        setDone(ok);
        await revalidator.revalidate();
      },
      // The order may have moved (another operator, the learner): show it as it is now.
      onFailure: () => revalidator.revalidate(),
    });
  }
  return { errors: form.errors, problem: form.problem, busy: form.busy, run };
}

function Field({
  label,
  error,
  children,
}: {
  label: string;
  error?: string;
  children: (props: { id: string; "aria-invalid"?: true; "aria-describedby"?: string }) => ReactNode;
}) {
  const id = useId();
  return (
    <div className="desk-field">
      <label htmlFor={id}>{label}</label>
      {children({ id, ...(error ? { "aria-invalid": true, "aria-describedby": `${id}-e` } : {}) })}
      {error ? (
        <p className="desk-field__error" id={`${id}-e`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

const prevent = (handler: () => unknown) => (e: FormEvent) => {
  e.preventDefault();
  void handler();
};

function ShipForm({ orderNo }: { orderNo: string }) {
  const [carrier, setCarrier] = useState(CARRIERS[0]!);
  const [trackingNo, setTrackingNo] = useState("");
  const form = useDeskForm();
  return (
    <form
      className="desk-form"
      aria-label="发货"
      onSubmit={prevent(() =>
        form.run(
          adminShipSchema,
          { carrier, trackingNo },
          `/api/admin/orders/${orderNo}/ship`,
          "已发货，学员会收到通知",
        ),
      )}
    >
      <h3 className="desk-form__title">发货</h3>
      <div className="desk-form__row">
        <Field label="快递公司" error={form.errors.carrier}>
          {(p) => (
            <input
              {...p}
              list="desk-carriers"
              value={carrier}
              onChange={(e) => setCarrier(e.target.value)}
              maxLength={20}
            />
          )}
        </Field>
        <datalist id="desk-carriers">
          {CARRIERS.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
        <Field label="快递单号" error={form.errors.trackingNo}>
          {(p) => (
            <input
              {...p}
              value={trackingNo}
              onChange={(e) => setTrackingNo(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              maxLength={40}
            />
          )}
        </Field>
        <button type="submit" className="button button--primary" disabled={form.busy} aria-busy={form.busy}>
          {form.busy ? "正在发货…" : "确认发货"}
        </button>
      </div>
      <FormAlert look="desk" problem={form.problem} />
    </form>
  );
}

function ReturnReview({ detail }: { detail: AdminOrderDetail }) {
  const request = detail.refunds.at(-1);
  const [note, setNote] = useState("");
  const [reason, setReason] = useState("");
  const approve = useDeskForm({ idempotent: true });
  const reject = useDeskForm();
  const orderNo = detail.order.orderNo;
  if (!request) return null;
  return (
    <div className="desk-form" role="group" aria-label="审核退货">
      <h3 className="desk-form__title">审核退货申请</h3>
      <p className="desk-form__lead">
        学员申请退回 {request.quantity ?? detail.order.quantity} 件，退款 {formatMoney(request.amountCents)}；原因：
        {request.reason}
      </p>
      <form
        aria-label="通过退货"
        onSubmit={prevent(() =>
          approve.run(
            adminApproveReturnSchema,
            note.trim() ? { note } : {},
            `/api/admin/orders/${orderNo}/return/approve`,
            "已通过，款项原路退回",
          ),
        )}
      >
        <div className="desk-form__row">
          <Field label="审核说明（选填，学员可见）" error={approve.errors.note}>
            {(p) => <input {...p} value={note} onChange={(e) => setNote(e.target.value)} maxLength={200} />}
          </Field>
          <button type="submit" className="button button--primary" disabled={approve.busy || reject.busy}>
            {approve.busy ? "正在退款…" : "通过并退款"}
          </button>
        </div>
        <FormAlert look="desk" problem={approve.problem} />
      </form>
      <form
        aria-label="不通过退货"
        onSubmit={prevent(() =>
          reject.run(
            adminRejectReturnSchema,
            { note: reason },
            `/api/admin/orders/${orderNo}/return/reject`,
            "已驳回，学员会看到原因",
          ),
        )}
      >
        <div className="desk-form__row">
          <Field label="不通过的原因（告诉学员）" error={reject.errors.note}>
            {(p) => <input {...p} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={200} />}
          </Field>
          <button type="submit" className="button" disabled={approve.busy || reject.busy}>
            {reject.busy ? "正在提交…" : "不通过"}
          </button>
        </div>
        <FormAlert look="desk" problem={reject.problem} />
      </form>
    </div>
  );
}

function RetryRefund({ orderNo, refundId, amountCents }: { orderNo: string; refundId: number; amountCents: number }) {
  const form = useDeskForm({ idempotent: true });
  return (
    <form
      className="desk-form"
      aria-label="重试退款"
      onSubmit={prevent(() =>
        form.run(adminRetryRefundSchema, { refundId }, `/api/admin/orders/${orderNo}/refund/retry`, "退款已重新发起"),
      )}
    >
      <h3 className="desk-form__title">退款被支付渠道拒绝</h3>
      <div className="desk-form__row">
        <p className="desk-form__lead">再次向支付渠道申请退款 {formatMoney(amountCents)}。</p>
        <button type="submit" className="button button--primary" disabled={form.busy}>
          {form.busy ? "正在重试…" : "重试退款"}
        </button>
      </div>
      <FormAlert look="desk" problem={form.problem} />
    </form>
  );
}

function ManualRefund({ detail }: { detail: AdminOrderDetail }) {
  const form = useDeskForm({ idempotent: true });
  const { order, actions } = detail;
  const [reason, setReason] = useState("");
  const [quantity, setQuantity] = useState(String(actions.refund.maxQuantity));
  if (!actions.refund.allowed)
    return (
      <div className="desk-form">
        <h3 className="desk-form__title">人工退款</h3>
        <p className="desk-muted">不能退款：{actions.refund.reason}</p>
      </div>
    );
  return (
    <form
      className="desk-form"
      aria-label="人工退款"
      onSubmit={prevent(() =>
        form.run(
          adminRefundInputSchema,
          order.physical ? { reason, quantity: Number(quantity) } : { reason },
          `/api/admin/orders/${order.orderNo}/refund`,
          "已退款",
        ),
      )}
    >
      <h3 className="desk-form__title">人工退款</h3>
      <p className="desk-form__lead">{actions.refund.reason}。款项原路退回，学员会收到通知。</p>
      <div className="desk-form__row">
        {order.physical && actions.refund.maxQuantity > 1 ? (
          <Field label="退回件数" error={form.errors.quantity}>
            {(p) => (
              <select {...p} value={quantity} onChange={(e) => setQuantity(e.target.value)}>
                {Array.from({ length: actions.refund.maxQuantity }, (_, i) => String(i + 1)).map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ) : null}
        <Field label="退款原因（学员可见）" error={form.errors.reason}>
          {(p) => <input {...p} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={200} />}
        </Field>
        <button type="submit" className="button" disabled={form.busy}>
          {form.busy ? "正在退款…" : "退款"}
        </button>
      </div>
      <FormAlert look="desk" problem={form.problem} />
    </form>
  );
}

export function OrderActions({ detail }: { detail: AdminOrderDetail }) {
  const { actions, order } = detail;
  const [done, setDone] = useState<string | null>(null);
  const failed = detail.refunds.find((r) => r.id === actions.retryRefundId);
  const any = actions.ship || actions.reviewReturn || failed || order.state !== "pending";
  // The live region is always in the page, so that a screen reader hears what is put into it.
  const said = (
    <p className={done ? "desk-done" : "visually-hidden"} role="status">
      {done}
    </p>
  );
  if (!any)
    return (
      <>
        {said}
        <p className="desk-muted">订单待支付，暂无可做的操作。</p>
      </>
    );
  return (
    <div className="desk-actions">
      {said}
      <DeskDone.Provider value={setDone}>
        {actions.reviewReturn ? <ReturnReview detail={detail} /> : null}
        {failed ? <RetryRefund orderNo={order.orderNo} refundId={failed.id} amountCents={failed.amountCents} /> : null}
        {actions.ship ? <ShipForm orderNo={order.orderNo} /> : null}
        {!actions.reviewReturn && order.state !== "pending" && order.state !== "cancelled" ? (
          <ManualRefund detail={detail} />
        ) : null}
      </DeskDone.Provider>
    </div>
  );
}
