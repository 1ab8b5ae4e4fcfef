/**
 * The operator's commerce side in a real browser: a learner redeems a physical item with an
 * address (typed, or one of their address book), the operator ships it from /admin/shipping, the learner's 兑换记录 shows 已发货 with the
 * tracking number; a learner sends feedback, the operator replies from /admin/moderation and the
 * learner finds the reply among their notices; the audit log shows both actions.
 */
import { mkdirSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";
import { newLearnerAt } from "./login-helpers";

const SHOTS = "test-results/shots-admin-mall";
mkdirSync(SHOTS, { recursive: true });

/** The demo operator, signed in through the API in a browser context of their own. */
async function operatorContext(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const login = await context.request.post("/api/auth/email/login", {
    data: { email: "operator@mochi.local", password: "Mochi-operator-2026" },
    headers: { Origin: baseURL },
  });
  expect(login.ok()).toBe(true);
  return context;
}

/** A new coin item in the mall for the first book of the shop, made by the operator; its id. */
async function newMallBook(
  operator: BrowserContext,
  origin: { Origin: string },
  item: { title: string; price: number; perUserLimit: number; coverChar: string },
) {
  const book = await operator.request.get("/api/shop/books");
  expect(book.ok()).toBe(true);
  const bookId = ((await book.json()) as { items: { id: number }[] }).items[0]!.id;
  const created = await operator.request.post("/api/admin/mall/items", {
    headers: origin,
    data: { ...item, kind: "book", refId: bookId, currency: "coin", stock: 5 },
  });
  expect(created.status()).toBe(201);
  return (await created.json()) as { id: number };
}

/** 100 coins for the signed-in learner of `page` (a test-only endpoint). */
async function grantCoins(page: Page, origin: { Origin: string }) {
  expect(
    (
      await page.request.post("/api/wallet/__test/grant", { data: { currency: "coin", amount: 100 }, headers: origin })
    ).status(),
  ).toBe(200);
}

test("a redeemed book is shipped by the operator and the learner sees the tracking number", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  const operator = await operatorContext(browser, baseURL!);
  const origin = { Origin: baseURL! };
  // A fresh item, so other specs' redemptions do not touch its stock.
  const title = `兑换测试书 ${Date.now().toString(36)}`;
  const item = await newMallBook(operator, origin, { title, price: 50, perUserLimit: 1, coverChar: "帖" });

  await newLearnerAt(page, "/my/exchange", "15");
  await grantCoins(page, origin);
  await page.goto(`/my/exchange/detail?id=${item.id}`);
  await waitForHydration(page);
  await page.getByLabel("收件人").fill("欧阳询");
  await page.getByLabel("手机号").fill("13912345678");
  await page.getByLabel("所在地区").fill("湖南省 长沙市 岳麓区");
  await page.getByLabel("详细地址").fill("麓山南路 2 号");
  await page.getByRole("button", { name: "立即兑换" }).click();
  await page.getByRole("dialog", { name: "确认兑换" }).getByRole("button", { name: "确认兑换" }).click();
  await expect(page.getByText("兑换成功，我们会尽快为你寄出")).toBeVisible();

  await page.goto("/my/exchange/record");
  await waitForHydration(page);
  const mine = page.locator(".redemption", { hasText: title });
  await expect(mine).toContainText("待发货");
  await expect(mine).toContainText("欧阳询");

  // The operator finds it among the goods waiting to ship and ships it.
  const admin = await operator.newPage();
  await admin.goto(`/admin/shipping?q=${encodeURIComponent(title)}`);
  await waitForHydration(admin);
  const row = admin.getByRole("row", { name: new RegExp(title) });
  await expect(row).toContainText("待发货");
  await expect(row).toContainText("欧阳询 13912345678");
  await admin.screenshot({ path: `${SHOTS}/shipping.png`, fullPage: true });
  await row.getByRole("button", { name: "发货" }).click();
  const dialog = admin.getByRole("dialog", { name: `发货：${title}` });
  await dialog.getByLabel("快递公司").fill("顺丰速运");
  await dialog.getByLabel("运单号").fill("x");
  await dialog.getByRole("button", { name: "确认发货" }).click();
  await expect(dialog.getByRole("alert")).toContainText("快递单号应为 6–40 位字母或数字");
  await dialog.getByLabel("运单号").fill("SF2026112601");
  await dialog.getByRole("button", { name: "确认发货" }).click();
  await expect(dialog).toBeHidden();
  await expect(admin.getByText("没有待发货的兑换。")).toBeVisible();
  await admin.getByRole("link", { name: "已发货" }).click();
  await expect(admin.getByRole("row", { name: new RegExp(title) })).toContainText("顺丰速运 SF2026112601");

  // The learner's records show it shipped, with the tracking number, and a notice says so.
  await page.goto("/my/exchange/record");
  await waitForHydration(page);
  await expect(mine).toContainText("已发货");
  await expect(mine).toContainText("顺丰速运 运单号 SF2026112601");
  await page.screenshot({ path: `${SHOTS}/record.png`, fullPage: true });
  await mine.getByRole("button", { name: "确认收货" }).click();
  await expect(mine).toContainText("已签收");

  // The audit log shows who shipped it.
  await admin.goto("/admin/audit?action=redemption.ship");
  await waitForHydration(admin);
  await expect(admin.getByRole("row", { name: /redemption\.ship/ }).first()).toContainText("SF2026112601");
  await admin.screenshot({ path: `${SHOTS}/audit-ship.png`, fullPage: true });
  await operator.close();
  expect(consoleErrors).toEqual([]);
});

test("a learner redeems to an address of their address book, or types a new one", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  const operator = await operatorContext(browser, baseURL!);
  const origin = { Origin: baseURL! };
  const title = `地址簿兑换 ${Date.now().toString(36)}`;
  const item = await newMallBook(operator, origin, { title, price: 10, perUserLimit: 2, coverChar: "簿" });
  await operator.close();

  await newLearnerAt(page, "/my/exchange", "15");
  await grantCoins(page, origin);
  const saved = await page.request.post("/api/orders/addresses", {
    headers: origin,
    data: {
      recipient: "颜真卿",
      phone: "13812345678",
      region: "陕西省 西安市 碑林区",
      detail: "三学街 15 号",
      isDefault: true,
    },
  });
  expect(saved.ok()).toBe(true);

  // The saved address is offered and chosen; no address needs typing.
  await page.goto(`/my/exchange/detail?id=${item.id}`);
  await waitForHydration(page);
  const book1 = page.getByRole("group", { name: "收货地址" });
  await expect(book1.getByRole("radio", { name: /颜真卿 13812345678/ })).toBeChecked();
  await expect(page.getByLabel("收件人")).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/redeem-saved-address.png`, fullPage: true });
  await page.getByRole("button", { name: "立即兑换" }).click();
  const confirm = page.getByRole("dialog", { name: "确认兑换" });
  await expect(confirm).toContainText("寄往：颜真卿，13812345678，陕西省 西安市 碑林区 三学街 15 号");
  await confirm.getByRole("button", { name: "确认兑换" }).click();
  await expect(page.getByText("兑换成功，我们会尽快为你寄出")).toBeVisible();

  // Typing another address stays possible.
  await book1.getByRole("radio", { name: "填写新地址" }).check();
  await page.getByLabel("收件人").fill("柳公权");
  await page.getByLabel("手机号").fill("13712345678");
  await page.getByLabel("所在地区").fill("陕西省 铜川市 耀州区");
  await page.getByLabel("详细地址").fill("药王山路 1 号");
  await page.getByRole("button", { name: "立即兑换" }).click();
  await expect(confirm).toContainText("寄往：柳公权");
  await confirm.getByRole("button", { name: "确认兑换" }).click();
  await expect(page.getByText("兑换成功，我们会尽快为你寄出")).toBeVisible();

  await page.goto("/my/exchange/record");
  await waitForHydration(page);
  const mine = page.locator(".redemption", { hasText: title });
  await expect(mine).toHaveCount(2);
  await expect(mine.filter({ hasText: "颜真卿" })).toContainText("三学街 15 号");
  await expect(mine.filter({ hasText: "柳公权" })).toContainText("药王山路 1 号");
  expect(consoleErrors).toEqual([]);
});

test("feedback is answered by the operator and the reply reaches the learner as a notice", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  await newLearnerAt(page, "/protocol/feedback", "15");
  const text = `兑换记录里希望能看到物流进度 ${Date.now().toString(36)}`;
  await page.getByLabel("反馈类型 *").selectOption("site");
  await page.getByLabel("反馈内容 *").fill(text);
  await page.getByRole("button", { name: "提交反馈" }).click();
  await expect(page.getByText("反馈已收到，谢谢你！")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/feedback-sent.png`, fullPage: true });

  const operator = await operatorContext(browser, baseURL!);
  const admin = await operator.newPage();
  await admin.goto(`/admin/moderation?q=${encodeURIComponent(text)}`);
  await waitForHydration(admin);
  const row = admin.getByRole("row", { name: new RegExp(text) });
  await expect(row).toContainText("待处理");
  await admin.screenshot({ path: `${SHOTS}/inbox.png`, fullPage: true });
  await row.getByRole("button", { name: "回复" }).click();
  const dialog = admin.getByRole("dialog", { name: "回复反馈" });
  await dialog.getByLabel("回复 *").fill("已经在做了，下个版本上线，谢谢建议！");
  await dialog.getByRole("button", { name: "发送回复" }).click();
  await expect(dialog).toBeHidden();
  await expect(admin.getByText("没有待处理的反馈。")).toBeVisible();

  await page.goto("/my");
  await waitForHydration(page);
  await page.locator(".notices-popover__summary").click();
  await expect(page.locator(".notices-popover")).toContainText("你的意见反馈有了回复");
  await expect(page.locator(".notices-popover")).toContainText("已经在做了，下个版本上线");

  await admin.goto("/admin/audit?action=feedback");
  await waitForHydration(admin);
  await expect(admin.getByRole("row", { name: /feedback\.reply/ }).first()).toContainText("已经在做了");
  await operator.close();
  expect(consoleErrors).toEqual([]);
});
