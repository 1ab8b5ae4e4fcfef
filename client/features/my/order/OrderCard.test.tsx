import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it } from "vitest";
import type { OrderSummary } from "../../../../shared/contracts/orders";
import { OrderCard } from "./OrderCard";

const order: OrderSummary = {
  orderNo: "M20260520000000000001",
  purpose: "buy",
  itemType: "course",
  itemId: 1,
  skuId: null,
  title: "楷书入门",
  skuName: null,
  coverUrl: "/covers/x.svg",
  quantity: 1,
  unitPriceCents: 19_900,
  totalCents: 19_900,
  couponDiscountCents: 2_000,
  coinDiscountCents: 500,
  payCents: 17_400,
  physical: false,
  state: "paid",
  stateLabel: "已支付",
  createdAt: "2026-05-20T00:00:00.000Z",
  expiresAt: "2026-05-20T00:30:00.000Z",
  refund: { allowed: false, reason: "课程已开始学习，按退款规则不能再申请退款" },
};

const render = (o: OrderSummary) =>
  renderToString(
    <MemoryRouter>
      <OrderCard order={o} serverNow="2026-05-21T00:00:00.000Z" onAction={() => {}} />
    </MemoryRouter>,
  );

describe("an order in the list", () => {
  it("已优惠 counts the coupon and the coins together", () => {
    expect(render(order)).toContain("已优惠 <!-- -->¥25<");
    expect(render({ ...order, couponDiscountCents: 0 })).toContain("已优惠 <!-- -->¥5<");
  });
  it("申请退款 only when the rule allows; otherwise the reason instead", () => {
    const refused = render(order);
    expect(refused).not.toContain(">申请退款<");
    expect(refused).toContain("暂不能退款：<!-- -->课程已开始学习");
    expect(render({ ...order, refund: { allowed: true, reason: "" } })).toContain(">申请退款<");
  });
});
