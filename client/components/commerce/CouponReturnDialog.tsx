/**
 * The coupon refund notice dialog, shown once per returned coupon.
 */
import { useEffect, useState } from "react";
import type { ReturnNotice } from "../../../shared/contracts/coupons";
import { formatDate } from "../../../shared/format";
import { browserApi } from "../../lib/api";
import { Modal } from "../../lib/modal";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const couponsContract = () => import("../../../shared/contracts/coupons");

/**
 * The coupon refund notice: when an order's coupon came back (cancel or refund), the learner is
 * told once — closing the dialog marks the notices seen on the server.
 */
export function CouponReturnDialog({ refreshKey = 0 }: { refreshKey?: number }) {
  const [notices, setNotices] = useState<ReturnNotice[]>([]);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    let live = true;
    browserApi("/api/coupons/return-notices", { schema: couponsContract().then((m) => m.returnNoticeListSchema) })
      .then((res) => {
        if (!live || res.items.length === 0) return;
        setNotices(res.items);
        setOpen(true);
      })
      .catch(() => {
        // A notice can wait for the next visit.
      });
    return () => {
      live = false;
    };
  }, [refreshKey]);

  function close() {
    setOpen(false);
    const couponIds = notices.map((n) => n.couponId);
    browserApi("/api/coupons/return-notices/seen", { method: "POST", body: { couponIds } }).catch(() => undefined);
  }

  return (
    <Modal open={open} onClose={close} title="优惠券已退回" className="coupon-return">
      <p>以下优惠券所在的订单已取消或退款，优惠券已退回你的卡包，有效期内可以继续使用：</p>
      <ul className="coupon-return__list">
        {notices.map((n) => (
          <li key={n.couponId}>
            <strong>{n.title}</strong>（{n.headline}）
            {n.orderNo ? <span className="coupon-return__order">来自订单 {n.orderNo}</span> : null}
            <span className="coupon-return__until">有效期至 {formatDate(n.validUntil)}</span>
          </li>
        ))}
      </ul>
      <div className="form__actions">
        <button type="button" className="button button--primary" onClick={close}>
          知道了
        </button>
      </div>
    </Modal>
  );
}
