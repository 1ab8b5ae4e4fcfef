/**
 * Coins and bishan in a real browser: a new learner checks in and finds the coin line in the
 * records, receives coins (test fixture), exchanges coins for bishan, redeems a coupon and a
 * physical item (with the address form and the confirmation dialog), and every line shows up in
 * the records with its reason and the balance after it.
 */
import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";
import { freshPhone, phoneLogin } from "./login-helpers";

const SHOTS = "test-results/shots-wallet";
mkdirSync(SHOTS, { recursive: true });

/** The rows of the records table: [reason, linked object, change, balance after]. */
async function recordRows(page: Page): Promise<string[][]> {
  const rows = page.locator(".record-table tbody tr");
  await expect(rows.first()).toBeVisible();
  return rows.evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].slice(1).map((td) => td.textContent?.trim() ?? "")),
  );
}

test("check in, exchange coins for bishan, redeem items, and read every line in the records", async ({
  page,
  consoleErrors,
  baseURL,
}) => {
  await page.goto("/?login=1&redirect=%2Fmy%2Fexchange");
  await waitForHydration(page);
  // A new learner: other specs earn coins as the demo learner, and this one reads exact balances.
  await phoneLogin(page, page.getByRole("dialog", { name: "登录墨池课堂" }), freshPhone("17"));
  await page.getByRole("dialog", { name: "完善资料" }).getByRole("button", { name: "跳过" }).click();
  await page.waitForURL((url) => url.pathname === "/my/exchange");
  await waitForHydration(page);

  // Check in: +5 coins, once a day.
  await expect(page.getByRole("heading", { level: 1, name: "兑换商城" })).toBeVisible();
  await expect(page.getByTestId("coin-balance")).toHaveText("0");
  await page.getByRole("button", { name: "签到领金币" }).click();
  await expect(page.getByText("签到成功，获得 5 金币")).toBeVisible();
  await expect(page.getByTestId("coin-balance")).toHaveText("5");
  await expect(page.getByRole("button", { name: "今日已签到" })).toBeDisabled();
  await expect(page.locator(".earn-list li").first()).toContainText("今日 5/5");
  await page.screenshot({ path: `${SHOTS}/exchange.png`, fullPage: true });

  await page.getByRole("link", { name: "金币明细" }).first().click();
  await expect(page).toHaveURL(/\/my\/exchange\/record\/coin$/);
  await expect(page.getByRole("heading", { level: 1, name: "金币明细" })).toBeVisible();
  expect(await recordRows(page)).toEqual([["每日签到", expect.stringMatching(/^\d{4}-\d{2}-\d{2} 签到$/), "+5", "5"]]);

  // Some coins for the test (fixtures only), then exchange 3 bishan with the live preview.
  const granted = await page.request.post("/api/wallet/__test/grant", {
    data: { currency: "coin", amount: 1000 },
    headers: { Origin: baseURL! },
  });
  expect(granted.status()).toBe(200);
  await page.goto("/my/exchange");
  await waitForHydration(page);
  await expect(page.getByTestId("coin-balance")).toHaveText("1,005");
  const amount = page.getByLabel("兑换笔山数量");
  await amount.fill("0");
  await expect(page.locator("#exchange-preview")).toContainText("请输入 1–100 的整数");
  await page.getByRole("button", { name: "确认兑换" }).click();
  await expect(page.getByRole("alert")).toHaveText("至少兑换 1 个笔山");
  await amount.fill("3");
  await expect(page.locator("#exchange-preview")).toContainText("将消耗 300 金币");
  await page.getByRole("button", { name: "确认兑换" }).click();
  await expect(page.getByText("兑换成功：消耗 300 金币，获得 3 笔山")).toBeVisible();
  await expect(page.getByTestId("coin-balance")).toHaveText("705");
  await expect(page.getByTestId("bishan-balance")).toHaveText("3");

  // Redeem the coupon: confirmation dialog, then the result.
  const mall = page.locator(".exchange-grid");
  // Every item on the shelf (other specs may add some to the seeded eight).
  const shelf = (await (await page.request.get("/api/wallet/items")).json()) as { items: unknown[] };
  expect(shelf.items.length).toBeGreaterThanOrEqual(8);
  await expect(mall.locator(".exchange-card")).toHaveCount(shelf.items.length);
  await mall.scrollIntoViewIfNeeded();
  await expect(mall.locator(".lazy-image--loaded").first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/mall.png` });
  await mall.getByRole("link", { name: /兑换专享优惠券/ }).click();
  await expect(page).toHaveURL(/\/my\/exchange\/detail\?id=\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: "兑换专享优惠券 满 99 减 20" })).toBeVisible();
  await expect(page.getByTestId("my-balance")).toHaveText("705 金币");
  const stock = Number(await page.getByTestId("item-stock").textContent());
  await page.getByRole("button", { name: "立即兑换" }).click();
  const confirm = page.getByRole("dialog", { name: "确认兑换" });
  await expect(confirm).toContainText("确认用 200 金币兑换“兑换专享优惠券 满 99 减 20”吗？");
  await page.screenshot({ path: `${SHOTS}/detail-confirm.png` });
  await confirm.getByRole("button", { name: "确认兑换" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText("兑换成功，优惠券已放入你的卡包")).toBeVisible();
  await expect(page.getByTestId("my-balance")).toHaveText("505 金币");
  await expect(page.getByTestId("item-stock")).toHaveText(String(stock - 1));

  // A physical item asks for an address and says what is wrong with it, in Chinese.
  await page.getByRole("link", { name: "返回兑换商城" }).click();
  await expect(page).toHaveURL(/\/my\/exchange$/);
  const physical = mall.locator(".exchange-card", { hasText: "文房用品" }).first();
  const physicalTitle = (await physical.locator(".exchange-card__title").textContent())!.trim();
  await physical.getByRole("link").click();
  await expect(page.getByRole("heading", { level: 1, name: physicalTitle })).toBeVisible();
  await page.getByRole("button", { name: "立即兑换" }).click();
  await expect(page.getByText("请填写收件人", { exact: true })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveText("请检查收货地址");
  await page.getByLabel("收件人").fill("王羲之");
  await page.getByLabel("手机号").fill("13912345678");
  await page.getByLabel("所在地区").fill("浙江省 绍兴市 越城区");
  await page.getByLabel("详细地址").fill("兰亭路 1 号");
  await page.screenshot({ path: `${SHOTS}/detail-address.png`, fullPage: true });
  await page.getByRole("button", { name: "立即兑换" }).click();
  await expect(page.getByRole("dialog", { name: "确认兑换" })).toContainText("寄往：王羲之，13912345678");
  await page.getByRole("dialog", { name: "确认兑换" }).getByRole("button", { name: "确认兑换" }).click();
  await expect(page.getByText("兑换成功，我们会尽快为你寄出")).toBeVisible();
  await expect(page.getByTestId("my-balance")).toHaveText("205 金币");

  // The records: every line with its reason, linked object, change and balance after.
  await page.getByRole("link", { name: "查看金币明细" }).click();
  await expect(page).toHaveURL(/\/my\/exchange\/record\/coin$/);
  expect(await recordRows(page)).toEqual([
    ["兑换商城", `兑换：${physicalTitle}`, "−300", "205"],
    ["兑换商城", "兑换：兑换专享优惠券 满 99 减 20", "−200", "505"],
    ["兑换笔山", "300 金币兑换 3 笔山", "−300", "705"],
    ["平台发放", "测试发放", "+1000", "1005"],
    ["每日签到", expect.stringMatching(/签到$/), "+5", "5"],
  ]);
  await page.screenshot({ path: `${SHOTS}/record-coin.png`, fullPage: true });
  await page.getByRole("link", { name: "笔山明细" }).click();
  await expect(page).toHaveURL(/\/my\/exchange\/record\/bishan$/);
  expect(await recordRows(page)).toEqual([["金币兑换", "300 金币兑换 3 笔山", "+3", "3"]]);

  // The records overview opens on the coin tab.
  await page.goto("/my/exchange/record");
  await waitForHydration(page);
  await expect(page.getByRole("link", { name: "金币明细" }).first()).toHaveAttribute("aria-current", "page");
  await expect(page.locator(".record-table tbody tr")).toHaveCount(5);
  await page.screenshot({ path: `${SHOTS}/record.png`, fullPage: true });

  expect(consoleErrors).toEqual([]);
});

test("records are empty for a learner with no lines, and an unknown item is not found", async ({
  page,
  consoleErrors,
}) => {
  await page.goto("/?login=1&redirect=%2Fmy%2Fexchange%2Frecord%2Fbishan");
  await waitForHydration(page);
  await phoneLogin(page, page.getByRole("dialog", { name: "登录墨池课堂" }), "13800138001");
  await page.waitForURL((url) => url.pathname === "/my/exchange/record/bishan");
  await waitForHydration(page);
  await expect(page.getByText("还没有笔山记录")).toBeVisible();
  await expect(page.getByRole("link", { name: "用金币兑换笔山" })).toHaveAttribute("href", "/my/exchange");
  await page.screenshot({ path: `${SHOTS}/record-empty.png`, fullPage: true });
  expect(consoleErrors).toEqual([]);

  const missing = await page.goto("/my/exchange/detail?id=999999");
  expect(missing?.status()).toBe(404);
});
