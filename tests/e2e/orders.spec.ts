/**
 * Buying with the sandbox (issue "Commerce" §7): a paid course bought from its page — order,
 * /payment, the hosted sandbox checkout, /payment/success, and the first locked lesson now open;
 * a coupon claimed in /my/packs, applied to an order, returned when the order is cancelled (tab
 * 已退回, the refund notice dialog once); /my/order by tab. No console errors anywhere.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { bookPaidThroughApi } from "./checkout";
import { expect, test, waitForHydration } from "./fixtures";
import { signInNewLearner } from "./login-helpers";

const SHOTS = "test-results/shots-orders";
mkdirSync(SHOTS, { recursive: true });

interface CourseItem {
  id: number;
  title: string;
  priceCents: number;
  kind: string;
}

/** A paid recorded course whose outline has a locked (non-trial) lesson. */
async function paidCourse(page: Page, skip = 0): Promise<CourseItem> {
  const res = await page.request.get("/api/courses?pageSize=48&sort=price_desc");
  const { items } = (await res.json()) as { items: CourseItem[] };
  const paid = items.filter((c) => c.priceCents >= 5000 && c.kind === "recorded");
  expect(paid.length).toBeGreaterThan(skip);
  return paid[skip]!;
}

/** 立即购买 on the course's page; the order's number, once its payment page is there. */
async function buyNow(page: Page, courseId: number): Promise<string> {
  await page.goto(`/course/${courseId}`);
  await waitForHydration(page);
  await page.getByRole("button", { name: "立即购买" }).click();
  await page.waitForURL(/\/payment\?order=M\d{20}$/);
  await waitForHydration(page);
  return new URL(page.url()).searchParams.get("order")!;
}

test("buys a course with the sandbox: order → pay → success → the locked lesson opens", async ({
  page,
  consoleErrors,
}) => {
  await signInNewLearner(page, "16");
  const course = await paidCourse(page);
  const detail = (await (await page.request.get(`/api/courses/${course.id}`)).json()) as {
    chapters: Array<{ lessons: Array<{ id: number; isTrial: boolean }> }>;
  };
  const lockedId = detail.chapters.flatMap((c) => c.lessons).find((l) => !l.isTrial)!.id;
  await page.goto(`/video/${lockedId}`);
  await waitForHydration(page);
  await expect(page.getByText("购买课程后即可学习").first()).toBeVisible();

  const orderNo = await buyNow(page, course.id);
  await expect(page.getByRole("heading", { name: "支付订单", level: 1 })).toBeVisible();
  await expect(page.getByText(`订单号 ${orderNo}`)).toBeVisible();
  await expect(page.getByText(course.title).first()).toBeVisible();
  await expect(page.getByTestId("pay-countdown")).toHaveText(/^(29|30):\d\d$/);
  await expect(page.getByTestId("pay-amount")).toHaveText(`¥${course.priceCents / 100}`);
  await page.screenshot({ path: `${SHOTS}/payment.png`, fullPage: true });

  await page.getByRole("button", { name: /^立即支付/ }).click();
  await page.waitForURL(/\/api\/payments\/sandbox\/checkout\//);
  await expect(page.getByRole("heading", { name: course.title })).toBeVisible();
  await expect(page.getByText(`¥${course.priceCents / 100}`)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/sandbox-checkout.png`, fullPage: true });
  await page.getByRole("button", { name: "同意付款", exact: true }).click();

  await page.waitForURL(`**/payment/success?order=${orderNo}`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "支付成功" })).toBeVisible({ timeout: 15_000 });
  await page.screenshot({ path: `${SHOTS}/payment-success.png`, fullPage: true });
  await expect(page.getByRole("link", { name: "开始学习" })).toBeVisible();

  // The lesson that was locked plays now.
  await page.goto(`/video/${lockedId}`);
  await waitForHydration(page);
  await expect(page.locator("video")).toHaveCount(1);
  await expect(page.getByText("购买课程后即可学习")).toHaveCount(0);

  await page.goto("/my/order?state=completed");
  await waitForHydration(page);
  await expect(page.locator(`[data-order-no="${orderNo}"]`)).toContainText("已完成");
  await page.locator(`[data-order-no="${orderNo}"]`).getByRole("button", { name: "订单详情" }).click();
  const dialog = page.getByRole("dialog", { name: "订单详情" });
  await expect(dialog.getByText("支付成功")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/order-detail.png`, fullPage: true });
  await dialog.getByRole("button", { name: "关闭" }).click();
  await page.getByRole("link", { name: /^待支付/ }).click();
  await expect(page.getByText("没有待支付的订单")).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test("a claimed coupon applies to an order and comes back as 已退回 on cancel, with the notice once", async ({
  page,
  consoleErrors,
}) => {
  await signInNewLearner(page, "16");
  await page.goto("/my/packs");
  await waitForHydration(page);
  await expect(page.getByText("没有可用的优惠券", { exact: true })).toBeVisible();
  const template = page.locator("[data-template-id]").filter({ hasText: "新人专享券" });
  await template.getByRole("button", { name: "领取" }).click();
  await expect(page.locator("[data-coupon-id]").filter({ hasText: "新人专享券" })).toBeVisible();
  await expect(template.getByRole("button", { name: "已领取" })).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/packs.png`, fullPage: true });

  const course = await paidCourse(page, 1);
  const orderNo = await buyNow(page, course.id);
  const select = page.getByLabel("优惠券");
  await expect(select.locator("option", { hasText: "新人专享券" })).toHaveCount(1);
  const value = await select.locator("option", { hasText: "新人专享券" }).getAttribute("value");
  await select.selectOption(value!);
  await expect(page.getByTestId("pay-amount")).toHaveText(`¥${(course.priceCents - 1000) / 100}`);
  await expect(select).toHaveValue("current");

  await page.goto("/my/order?state=pending");
  await waitForHydration(page);
  const card = page.locator(`[data-order-no="${orderNo}"]`);
  await expect(card).toContainText("已优惠 ¥10");
  await card.getByRole("button", { name: "取消订单" }).click();
  await page.getByRole("dialog", { name: "取消订单" }).getByRole("button", { name: "确认取消" }).click();
  const notice = page.getByRole("dialog", { name: "优惠券已退回" });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText("新人专享券");
  await expect(notice).toContainText(orderNo);
  await page.screenshot({ path: `${SHOTS}/coupon-returned.png`, fullPage: true });
  await notice.getByRole("button", { name: "知道了" }).click();
  await expect(notice).toBeHidden();
  await expect(card).toHaveCount(0);
  await page.getByRole("link", { name: /^已取消/ }).click();
  await expect(page.locator(`[data-order-no="${orderNo}"]`)).toContainText("已取消");

  await page.goto("/my/packs?state=已退回");
  await waitForHydration(page);
  await expect(page.locator("[data-coupon-id]").filter({ hasText: "新人专享券" })).toContainText("已退回");
  // Seen once: no dialog this time.
  await page.waitForTimeout(800);
  await expect(page.getByRole("dialog", { name: "优惠券已退回" })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/packs-returned.png`, fullPage: true });
  expect(consoleErrors).toEqual([]);
});

test("coins take up to 30 % off at checkout and come back when the order is cancelled", async ({
  page,
  consoleErrors,
}) => {
  await signInNewLearner(page, "16");
  const granted = await page.request.post("/api/wallet/__test/grant", {
    data: { currency: "coin", amount: 5000 },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(granted.ok()).toBe(true);
  const course = await paidCourse(page, 2);
  const orderNo = await buyNow(page, course.id);
  const coins = Math.min(5000, Math.floor(course.priceCents * 0.3));
  const toggle = page.getByRole("checkbox", { name: `使用 ${coins} 金币抵扣 ¥${coins / 100}` });
  await expect(page.getByText("金币余额 5000")).toBeVisible();
  await toggle.click();
  await expect(page.getByRole("checkbox", { name: /^已用 \d+ 金币抵扣/ })).toBeChecked();
  await expect(page.getByTestId("pay-amount")).toHaveText(`¥${(course.priceCents - coins) / 100}`);
  await expect(page.getByText(`金币余额 ${5000 - coins}`)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/payment-coins.png`, fullPage: true });

  await page.goto("/my/order?state=pending");
  await waitForHydration(page);
  const card = page.locator(`[data-order-no="${orderNo}"]`);
  await card.getByRole("button", { name: "取消订单" }).click();
  await page.getByRole("dialog", { name: "取消订单" }).getByRole("button", { name: "确认取消" }).click();
  await expect(card).toHaveCount(0);
  await page.goto("/my/exchange/record/coin");
  await waitForHydration(page);
  await expect(page.getByText("订单取消退回").first()).toBeVisible();
  await expect(page.getByText("下单抵扣").first()).toBeVisible();
  const wallet = (await (await page.request.get("/api/wallet")).json()) as { balances: { coin: number } };
  expect(wallet.balances.coin).toBe(5000);
  expect(consoleErrors).toEqual([]);
});

test("a received order goes back in part: the return waits for review, can be withdrawn, and once approved is 部分退款", async ({
  page,
  playwright,
  baseURL,
  consoleErrors,
}) => {
  await signInNewLearner(page, "16");
  const origin = { Origin: baseURL! };
  // Two copies of a book, bought and paid through the sandbox's hosted checkout.
  const order = await bookPaidThroughApi(
    page,
    baseURL!,
    { recipient: "李书童", region: "江苏省 苏州市 姑苏区", detail: "平江路 88 号" },
    2,
  );

  // An operator ships it (through the API here; the operators' pages have their own spec).
  const operator = await playwright.request.newContext({ baseURL, extraHTTPHeaders: origin });
  const login = await operator.post("/api/auth/email/login", {
    data: { email: "operator@mochi.local", password: "Mochi-operator-2026" },
  });
  expect(login.ok()).toBe(true);
  await expect
    .poll(async () =>
      (
        await operator.post(`/api/admin/orders/${order.orderNo}/ship`, {
          data: { carrier: "顺丰速运", trackingNo: "SF7770001" },
        })
      ).status(),
    )
    .toBe(200);

  await page.goto("/my/order?state=paid");
  await waitForHydration(page);
  const card = page.locator(`[data-order-no="${order.orderNo}"]`);
  await card.getByRole("button", { name: "确认收货" }).click();
  const confirm = page.getByRole("dialog", { name: "确认收货" });
  await confirm.getByRole("button", { name: "确认收货" }).click();
  // The dialog closes once the order is confirmed; leaving before that may cut the request short.
  await expect(confirm).toBeHidden();
  await page.goto("/my/order?state=completed");
  await waitForHydration(page);

  const ask = async (reason: string) => {
    await card.getByRole("button", { name: "申请退款" }).click();
    const dialog = page.getByRole("dialog", { name: "申请退款" });
    await dialog.getByLabel("退货数量").selectOption("1");
    await expect(dialog).toContainText(`退款金额 ¥${Math.floor(order.payCents / 2) / 100}`);
    await expect(dialog).toContainText("退货需客服审核");
    await dialog.getByLabel("退款原因").fill(reason);
    await page.screenshot({ path: `${SHOTS}/return-request.png`, fullPage: true });
    await dialog.getByRole("button", { name: "提交退货申请" }).click();
    await expect(dialog).toBeHidden();
  };
  await ask("多买了一本");
  await page.goto("/my/order?state=refund");
  await waitForHydration(page);
  await expect(card).toContainText("退款中");
  await card.getByRole("button", { name: "订单详情" }).click();
  const detail = page.getByRole("dialog", { name: "订单详情" });
  await expect(detail).toContainText("退货待审核");
  await page.screenshot({ path: `${SHOTS}/return-waiting.png`, fullPage: true });
  await detail.getByRole("button", { name: "撤销退货申请" }).click();
  await expect(detail).toBeHidden();
  await page.goto("/my/order?state=completed");
  await waitForHydration(page);
  await expect(card).toContainText("已完成");

  await ask("还是退一本");
  expect(
    (
      await operator.post(`/api/admin/orders/${order.orderNo}/return/approve`, {
        data: {},
        headers: { "Idempotency-Key": randomUUID() },
      })
    ).status(),
  ).toBe(200);
  await page.goto("/my/order?state=refund");
  await waitForHydration(page);
  await expect(card).toContainText("部分退款");
  await card.getByRole("button", { name: "订单详情" }).click();
  await expect(detail).toContainText(`已退款¥${Math.floor(order.payCents / 2) / 100}`);
  await expect(detail).toContainText("退货申请已通过");
  await page.screenshot({ path: `${SHOTS}/return-partial.png`, fullPage: true });
  await operator.dispose();
  expect(consoleErrors).toEqual([]);
});
