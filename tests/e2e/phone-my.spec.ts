/**
 * The personal centre and payment on a phone (390×844, touch, Chrome on Android): every /my page
 * and the payment pages fit the screen (nothing wider than it, no text under 12 px, thumb-sized
 * main buttons); a diary entry written with the phone; an order paid from 我的订单 through the
 * sandbox; inside WeChat's browser the payment page switches off what cannot work there and says
 * what to do instead.
 *
 * The site header is laid out for phones elsewhere: until it is, it overflows the screen by
 * itself, so these checks look at the page's own content (`main` and what is in it) only.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { chinaDate } from "../../shared/china-time";
import { expect, test, waitForHydration } from "./fixtures";
import { payInSandbox } from "./checkout";
import { signInDemo } from "./homework-helpers";
import { newLearnerAt } from "./login-helpers";
import { ANDROID_UA, WECHAT_UA, layoutProblems } from "./phone-layout";

const SHOTS = "test-results/shots-phone-my";
mkdirSync(SHOTS, { recursive: true });

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, userAgent: ANDROID_UA });

async function expectFits(page: Page, name: string) {
  await page.waitForTimeout(200);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  expect(await layoutProblems(page), name).toEqual({ overflow: 0, wide: [], tinyText: [], smallTargets: [] });
}

/** A pending order for a paid course, made through the API as the signed-in learner. */
async function pendingOrder(page: Page, baseURL: string): Promise<string> {
  const res = await page.request.get("/api/courses?pageSize=48&sort=price_desc");
  const { items } = (await res.json()) as { items: Array<{ id: number; priceCents: number }> };
  const course = items.find((c) => c.priceCents >= 5000)!;
  const order = await page.request.post("/api/orders", {
    data: { itemType: "course", itemId: course.id },
    headers: { Origin: baseURL, "Idempotency-Key": randomUUID() },
  });
  expect(order.status()).toBe(201);
  return ((await order.json()) as { order: { orderNo: string } }).order.orderNo;
}

const MY_PAGES = [
  "/my",
  "/my/allcourse",
  "/my/calendar",
  "/my/dairy",
  "/my/activities",
  "/my/order",
  "/my/packs",
  "/my/exchange",
  "/my/exchange/record",
  "/my/exchange/record/coin",
  "/my/exchange/record/bishan",
  "/my/information",
  "/my/security",
];

test("every page of the personal centre fits a phone", async ({ page, consoleErrors }) => {
  test.setTimeout(120_000);
  await signInDemo(page, "learner");
  for (const path of MY_PAGES) {
    await page.goto(path);
    await waitForHydration(page);
    await expectFits(page, path.slice(1).replaceAll("/", "_"));
  }
  // The menu is a row of tabs that scrolls sideways, the current page's tab among them.
  const menu = page.getByRole("navigation", { name: "个人中心菜单" });
  expect(await menu.evaluate((el) => getComputedStyle(el).overflowX)).toBe("auto");
  const current = menu.getByRole("link", { name: "账号与安全" });
  await expect(current).toHaveClass(/is-active/);
  // …scrolled round so that the current page's tab is in view.
  const tab = (await current.boundingBox())!;
  expect(tab.x).toBeGreaterThanOrEqual(0);
  expect(tab.x + tab.width).toBeLessThanOrEqual(391); // a pixel for the sub-pixel layout
  // The calendar's month fits as a grid of days; a tapped day's list is under it.
  await page.goto("/my/calendar");
  await waitForHydration(page);
  const grid = (await page.locator(".cal-grid").boundingBox())!;
  expect(grid.x + grid.width).toBeLessThanOrEqual(390);
  // An exchange item's page.
  await page.goto("/my/exchange");
  await waitForHydration(page);
  const item = page.locator("a[href^='/my/exchange/detail?']").first();
  await page.goto((await item.getAttribute("href"))!);
  await waitForHydration(page);
  await expectFits(page, "my_exchange_detail");
  // The payment page without an order, and 退出登录's question (last: confirming it signs out).
  await page.goto("/payment");
  await waitForHydration(page);
  await expect(page.getByText("没有要支付的订单")).toBeVisible();
  await expectFits(page, "payment-no-order");
  await page.goto("/my/logout");
  await waitForHydration(page);
  await expectFits(page, "my_logout");
  expect(consoleErrors).toEqual([]);
});

test("a diary entry written with the phone; the heat map scrolls inside its card", async ({ page, consoleErrors }) => {
  await newLearnerAt(page, "/my/dairy", "19");
  const form = page.getByRole("form", { name: "今天的日记" });
  await form.getByRole("spinbutton", { name: "练了多少分钟" }).tap();
  await form.getByRole("spinbutton", { name: "练了多少分钟" }).fill("25");
  await form.getByRole("textbox", { name: "练了哪些字" }).fill("永和九年");
  await form.getByRole("textbox", { name: "心得" }).fill("横画起笔再稳一些");
  const submit = form.getByRole("button", { name: "写好了，打卡" });
  const box = (await submit.boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(44);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await submit.tap();
  await expect(page.getByRole("status").filter({ hasText: "日记已保存" })).toBeVisible();
  await expect(page.getByTestId("total-minutes")).toContainText("25");
  await expect(page.locator(".diary-entry").first()).toContainText("永和九年");

  // Today's cell is lit, and the year's map keeps its size inside a card that scrolls sideways,
  // opened at the newest weeks.
  const today = chinaDate(new Date());
  const cell = page.locator(`[data-testid="heat-map"] rect[data-date="${today}"]`);
  await expect(cell).toHaveAttribute("data-minutes", "25");
  const heat = page.locator("figure.heat");
  const sizes = await heat.evaluate((el) => ({ box: el.clientWidth, content: el.scrollWidth }));
  expect(sizes.content).toBeGreaterThan(sizes.box);
  const cellBox = (await cell.boundingBox())!;
  expect(cellBox.width).toBeGreaterThanOrEqual(11);
  expect(cellBox.x + cellBox.width).toBeLessThanOrEqual(390);
  await expectFits(page, "dairy-written");
  expect(consoleErrors).toEqual([]);
});

test("an order paid on the phone from 我的订单, and the coin ledger as cards", async ({
  page,
  consoleErrors,
  baseURL,
}) => {
  await newLearnerAt(page, "/my/exchange", "19");
  // A check-in puts a line in the coin ledger.
  await page.getByRole("button", { name: "签到领金币" }).tap();
  await expect(page.getByText(/签到成功|已签到/).first()).toBeVisible();
  await page.goto("/my/exchange/record/coin");
  await waitForHydration(page);
  const line = page.locator(".record-table tbody tr").first();
  await expect(line).toContainText("+5");
  expect(await line.evaluate((el) => getComputedStyle(el).display)).toBe("grid");
  await expectFits(page, "coin-ledger");

  const orderNo = await pendingOrder(page, baseURL!);
  await page.goto("/my/order");
  await waitForHydration(page);
  await expectFits(page, "orders-pending");
  await page.getByRole("link", { name: "立即支付" }).first().tap();
  await page.waitForURL(`**/payment?order=${orderNo}`);
  await waitForHydration(page);
  await expectFits(page, "payment");
  await payInSandbox(page, async () => {
    const pay = (await page.getByRole("button", { name: /^立即支付/ }).boundingBox())!;
    expect(pay.height).toBeGreaterThanOrEqual(44);
  });
  await expectFits(page, "payment-success");

  // The paid order in 我的订单, and its details in the dialog.
  await page.goto("/my/order");
  await waitForHydration(page);
  await expectFits(page, "orders-paid");
  await page.getByRole("button", { name: "订单详情" }).first().tap();
  const dialog = page.getByRole("dialog", { name: "订单详情" });
  await expect(dialog.getByText(`订单号`).first()).toBeVisible();
  const sheet = (await dialog.boundingBox())!;
  expect(sheet.x).toBeGreaterThanOrEqual(0);
  expect(sheet.x + sheet.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SHOTS}/order-detail.png` });
  expect(consoleErrors).toEqual([]);
});

test.describe("inside WeChat's browser", () => {
  test.use({ userAgent: WECHAT_UA });

  test("the payment page switches off Alipay and the QR code with what to do instead", async ({
    page,
    consoleErrors,
    baseURL,
  }) => {
    await newLearnerAt(page, "/my/order", "19");
    const orderNo = await pendingOrder(page, baseURL!);

    // The server reads the browser from the request: its page data says WeChat on a phone.
    const html = await (
      await page.request.get(`/payment?order=${orderNo}`, { headers: { "User-Agent": WECHAT_UA } })
    ).text();
    expect(html).toContain('"browser":{"wechat":true,"handheld":true}');
    const android = await (
      await page.request.get(`/payment?order=${orderNo}`, { headers: { "User-Agent": ANDROID_UA } })
    ).text();
    expect(android).toContain('"browser":{"wechat":false,"handheld":true}');

    // The sandbox's checkout is a plain page: it works in WeChat, so it is offered as usual.
    await page.goto(`/payment?order=${orderNo}`);
    await waitForHydration(page);
    await expect(page.getByRole("button", { name: /^立即支付/ })).toBeEnabled();
    await expect(page.getByTestId("pay-blocked")).toHaveCount(0);

    // A live site offering WeChat Pay (a QR code) and Alipay.
    await page.route("**/api/payments/methods", (route) =>
      route.fulfill({
        json: {
          methods: [
            { method: "wechat", label: "微信支付" },
            { method: "alipay", label: "支付宝" },
          ],
        },
      }),
    );
    await page.goto("/my/order");
    await waitForHydration(page);
    await page.getByRole("link", { name: "立即支付" }).first().tap();
    await page.waitForURL(`**/payment?order=${orderNo}`);
    await expect(
      page.getByText("微信内无法使用支付宝付款：请点右上角「…」选择「在浏览器打开」后再付款。"),
    ).toBeVisible();
    await expect(page.getByText(/本机无法扫描自己屏幕上的码/)).toBeVisible();
    await expect(page.getByTestId("pay-browser-hint")).toContainText("在浏览器打开");
    await expect(page.getByRole("radio", { name: "支付宝" })).toBeDisabled();
    await expect(page.getByRole("radio", { name: "微信支付" })).toBeDisabled();
    await expect(page.getByRole("button", { name: /^立即支付/ })).toHaveCount(0);
    await expectFits(page, "payment-wechat");
    expect(consoleErrors).toEqual([]);
  });
});
