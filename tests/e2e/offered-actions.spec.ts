/**
 * Actions are offered only when they can succeed, or disabled with the reason beside them: 预约 on
 * a session of a course the learner has not joined, 确认兑换 without the coins for one bishan,
 * 提交订单 while the address is still being written, 立即购买 on a course the visitor teaches.
 */
import { mkdirSync } from "node:fs";
import { expect, test, waitForHydration } from "./fixtures";
import { signInDemo } from "./homework-helpers";
import { freshPhone, readCode } from "./login-helpers";

const SHOTS = "test-results/shots-offered-actions";
mkdirSync(SHOTS, { recursive: true });

test("a fresh learner sees why 预约, 确认兑换 and 提交订单 cannot be done yet", async ({ page, consoleErrors }) => {
  await page.goto("/");
  const phone = freshPhone("15");
  const headers = { Origin: new URL(page.url()).origin };
  expect((await page.request.post("/api/auth/sms/send", { data: { phone }, headers })).status()).toBe(200);
  const code = await readCode(page, phone, "login");
  expect((await page.request.post("/api/auth/sms/login", { data: { phone, code }, headers })).status()).toBe(200);

  // 预约: the schedule says which course to join instead of a button that answers 403.
  await page.goto("/live?tab=upcoming");
  await waitForHydration(page);
  const refused = page.locator(".booking-refused").first();
  await expect(refused.getByRole("button", { name: "预约" })).toBeDisabled();
  await expect(refused.locator(".action-reason")).toHaveText(/^报名《.+》后才能预约这场直播$/);
  await page.screenshot({ path: `${SHOTS}/live.png` });

  // 确认兑换 at 0 coins: disabled, with what is missing.
  await page.goto("/my/exchange");
  await waitForHydration(page);
  await expect(page.getByRole("button", { name: "确认兑换" })).toBeDisabled();
  await expect(page.locator("#exchange-why")).toContainText("金币余额不足：兑换 1 个笔山需要 100 金币，当前 0 金币");
  await page.screenshot({ path: `${SHOTS}/exchange.png` });

  // 提交订单 of a book with no saved address: disabled, and it says to save the address first.
  await page.goto("/books/1");
  await waitForHydration(page);
  await page.getByRole("button", { name: "立即购买" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("button", { name: "保存地址" })).toBeVisible();
  await expect(dialog.getByRole("button", { name: "提交订单" })).toBeDisabled();
  await expect(dialog.locator("#buy-checkout-why")).toHaveText("请先保存收货地址");
  await page.screenshot({ path: `${SHOTS}/checkout.png` });
  expect(consoleErrors).toEqual([]);
});

test("the course's own teacher finds 立即购买 disabled, with the reason beside it", async ({ page, consoleErrors }) => {
  await signInDemo(page, "teacher");
  await page.goto("/teach/courses");
  await waitForHydration(page);
  // Only courses on sale have a public page: one another test created and took off sale is a 404.
  const ids = await page
    .locator("main tbody tr")
    .filter({ has: page.getByRole("cell", { name: "已上架", exact: true }) })
    .locator('a[href^="/teach/courses/"]')
    .evaluateAll((links) => links.map((a) => a.getAttribute("href")?.split("/").pop() ?? ""));
  expect(ids.length).toBeGreaterThan(0);
  // The first of their paid courses (a free one offers 免费学习 instead).
  let shown = false;
  for (const id of ids) {
    await page.goto(`/course/${id}`);
    await waitForHydration(page);
    const reason = page.locator("#course-buy-why");
    if ((await reason.count()) === 0) continue;
    await expect(reason).toHaveText("这是你自己讲授的课程，无需购买");
    await expect(page.getByRole("button", { name: "立即购买" })).toBeDisabled();
    await page.screenshot({ path: `${SHOTS}/own-course.png` });
    shown = true;
    break;
  }
  expect(shown).toBe(true);
  expect(consoleErrors).toEqual([]);
});
