/** The pop-up for one order: its details, a refund request, a gift refund or a confirmation. */
import { type FormEvent, useEffect, useState } from "react";
import { Link } from "../../../routing/link";
import {
  type OrderDetail,
  orderDetailSchema,
  refundAmountFor,
  refundInputSchema,
  refundNeedsReview,
} from "../../../../shared/contracts/orders";
import { FormAlert } from "../../../components/form/FormAlert";
import { describeProblem } from "../../../lib/problem";
import { browserApi } from "../../../lib/api";
import { Modal } from "../../../lib/modal";
import { GiveawayRefund } from "../../../components/gifts/GiveawayRefund";
import { formatMoney } from "../../../../shared/money";
import { useMutation } from "../../../lib/mutation";
import { DetailBody } from "./DetailBody";
import type { Action } from "./OrderCard";

/**
 * What a refund gives back: the whole rest, or — for received goods of several pieces — the
 * pieces chosen; and whether it waits for review (goods with the learner) or is paid back at once.
 */
function RefundAmount({
  order,
  pieces,
  onPieces,
}: {
  order: OrderDetail;
  pieces: number | null;
  onPieces: (n: number) => void;
}) {
  const left = order.refundableQuantity;
  const partial = order.physical && left > 1 && (order.state === "completed" || order.state === "partially_refunded");
  const chosen = pieces ?? left;
  const amount = refundAmountFor(order, chosen, left);
  return (
    <>
      <p className="refund-rule">
        {order.refund.reason}。退款金额 <strong>{formatMoney(amount)}</strong>，原路退回。
        {refundNeedsReview(order) ? "退货需客服审核，审核通过后退款。" : ""}
      </p>
      {partial ? (
        <div className="form-field">
          <label className="form-field__label" htmlFor="refund-pieces">
            退货数量
          </label>
          <select
            id="refund-pieces"
            className="form-field__control"
            value={chosen}
            onChange={(e) => onPieces(Number(e.target.value))}
          >
            {Array.from({ length: left }, (_, i) => i + 1).map((n) => (
              <option key={n} value={n}>
                {n} 件{n === left ? "（全部）" : ""}
              </option>
            ))}
          </select>
          <p className="form-field__meta">部分退货时优惠券和金币不退回，全部退完时一并退回。</p>
        </div>
      ) : null}
    </>
  );
}

/** The pop-up for one order: its details, or the refund request, or a confirmation. */
export function OrderDialog({
  action,
  onClose,
  onChanged,
}: {
  action: Action | null;
  onClose: () => void;
  onChanged: () => void;
}) {
  const [detail, setDetail] = useState<OrderDetail | null>(null);
  const [loadedFor, setLoadedFor] = useState<string | null>(null);
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [pieces, setPieces] = useState<number | null>(null);
  const { busy, problem, setProblem, send } = useMutation({ idempotent: true });

  const key = action ? `${action.kind}:${action.orderNo}` : null;
  if (key !== loadedFor) {
    setLoadedFor(key);
    setDetail(null);
    setProblem(null);
    setReason("");
    setReasonError(null);
    setPieces(null);
  }
  const needsDetail =
    action !== null && (action.kind === "detail" || action.kind === "refund" || action.kind === "giftRefund");
  const orderNo = action?.orderNo ?? null;
  useEffect(() => {
    if (!needsDetail || !orderNo) return;
    let live = true;
    browserApi(`/api/orders/${orderNo}`, { schema: orderDetailSchema })
      .then((d) => {
        if (live) setDetail(d);
      })
      .catch((err: unknown) => {
        if (live) setProblem(describeProblem(err));
      });
    return () => {
      live = false;
    };
  }, [needsDetail, orderNo, setProblem]);

  async function act(path: string, body?: unknown) {
    await send(path, {
      body: body ?? {},
      schema: orderDetailSchema,
      onSuccess: () => {
        onChanged();
        onClose();
      },
    });
  }

  function submitRefund(event: FormEvent) {
    event.preventDefault();
    const parsed = refundInputSchema.safeParse(pieces === null ? { reason } : { reason, quantity: pieces });
    if (!parsed.success) {
      setReasonError(parsed.error.issues[0]?.message ?? "请填写退款原因");
      return;
    }
    setReasonError(null);
    if (action) void act(`/api/orders/${action.orderNo}/refund`, parsed.data);
  }

  const titles = {
    detail: "订单详情",
    refund: "申请退款",
    giftRefund: "礼物退款",
    cancel: "取消订单",
    confirm: "确认收货",
  } as const;
  return (
    <Modal open={action !== null} onClose={onClose} title={action ? titles[action.kind] : ""} className="order-dialog">
      {action?.kind === "detail" ? (
        detail ? (
          <DetailBody
            order={detail}
            busy={busy}
            onWithdraw={() => void act(`/api/orders/${detail.orderNo}/refund/withdraw`)}
          />
        ) : problem ? null : (
          <p role="status">正在加载订单详情…</p>
        )
      ) : null}
      {action?.kind === "refund" ? (
        detail ? (
          detail.refund.allowed ? (
            <form className="refund-form" onSubmit={submitRefund} noValidate>
              <RefundAmount order={detail} pieces={pieces} onPieces={setPieces} />
              <div className="form-field">
                <label className="form-field__label" htmlFor="refund-reason">
                  退款原因
                </label>
                <textarea
                  id="refund-reason"
                  className="form-field__control"
                  value={reason}
                  maxLength={200}
                  placeholder="请简单说明退款原因（2–200 字）"
                  aria-invalid={reasonError ? true : undefined}
                  aria-describedby={reasonError ? "refund-reason-error" : undefined}
                  onChange={(e) => setReason(e.target.value)}
                />
                {reasonError ? (
                  <p className="form-field__error" id="refund-reason-error">
                    {reasonError}
                  </p>
                ) : null}
              </div>
              <FormAlert problem={problem} />
              <div className="form__actions">
                <button type="button" className="button" onClick={onClose}>
                  再想想
                </button>
                <button type="submit" className="button button--primary" disabled={busy}>
                  {busy ? "正在提交…" : refundNeedsReview(detail) ? "提交退货申请" : "确认退款"}
                </button>
              </div>
            </form>
          ) : (
            <>
              <p className="refund-rule" role="alert">
                暂不能申请退款：{detail.refund.reason}。
              </p>
              <p>
                如有疑问请 <Link to="/protocol/contact">联系客服</Link>。
              </p>
            </>
          )
        ) : problem ? null : (
          <p role="status">正在查询退款规则…</p>
        )
      ) : null}
      {action?.kind === "giftRefund" ? (
        detail?.gift ? (
          <GiveawayRefund
            order={detail}
            gift={detail.gift}
            busy={busy}
            problem={problem}
            onSubmit={(path) => void act(path)}
            onCancel={onClose}
          />
        ) : problem ? null : (
          <p role="status">正在查询礼物状态…</p>
        )
      ) : null}
      {action?.kind === "cancel" || action?.kind === "confirm" ? (
        <>
          <p>
            {action.kind === "cancel"
              ? "确定取消这笔订单吗？取消后库存释放，使用的优惠券会退回卡包。"
              : "确认已经收到商品了吗？确认后订单完成。"}
          </p>
          <FormAlert problem={problem} />
          <div className="form__actions">
            <button type="button" className="button" onClick={onClose}>
              再想想
            </button>
            <button
              type="button"
              className="button button--primary"
              disabled={busy}
              onClick={() => void act(`/api/orders/${action.orderNo}/${action.kind}`)}
            >
              {busy ? "正在提交…" : action.kind === "cancel" ? "确认取消" : "确认收货"}
            </button>
          </div>
        </>
      ) : null}
      {action?.kind === "detail" || ((action?.kind === "refund" || action?.kind === "giftRefund") && !detail) ? (
        <FormAlert problem={problem} />
      ) : null}
    </Modal>
  );
}
