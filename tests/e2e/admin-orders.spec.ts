/**
 * The operators' order desk in the browser (issue 15): the demo operator finds a learner's book
 * order, ships it from its page and the learner sees it shipped; a return reviewed end to end —
 * the learner asks, the operator turns it down with a reason the learner reads, the learner asks
 * again and the operator approves it, the learner sees the money back; the audit log lists each
 * of these actions and says its hash chain is whole; an operator disables an account from the
 * accounts desk: its session ends and signing in says so in Chinese, until it is enabled again.
 * No console errors on either side.
 */
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { bookPaidThroughApi } from "./checkout";
import { expect, otherBrowser, test, waitForHydration } from "./fixtures";
import { signInDemo } from "./homework-helpers";
import {
  freshEmail,
  loadedAgain,
  openLoginDialog,
  readCode,
  userMenu,
  signInNewLearner,
  skipCompleteInfo,
} from "./login-helpers";

const SHOTS = "test-results/shots-admin";
mkdirSync(SHOTS, { recursive: true });

/** A book bought and paid with the sandbox by the signed-in learner: its order number, once it waits for shipping. */
async function paidBookOrder(page: Page, baseURL: string): Promise<string> {
  const order = await bookPaidThroughApi(page, baseURL, {
    recipient: "赵书生",
    region: "浙江省 杭州市 西湖区",
    detail: "北山路 18 号",
  });
  await expect
    .poll(
      async () => ((await (await page.request.get(`/api/orders/${order.orderNo}`)).json()) as { state: string }).state,
    )
    .toBe("awaiting_shipment");
  return order.orderNo;
}

/** The operator opens the order from the desk's list, searched by its number. */
async function openOnDesk(op: Page, orderNo: string, filter = "") {
  await op.goto(`/admin/orders${filter}`);
  await waitForHydration(op);
  const search = op.getByRole("search", { name: "筛选订单" });
  await search.getByLabel("搜索").fill(orderNo);
  await search.getByRole("button", { name: "筛选" }).click();
  await expect(op.getByRole("table")).toContainText("共 1 条");
  await op.getByRole("link", { name: orderNo }).click();
  await op.waitForURL(`**/admin/orders/detail?no=${orderNo}`);
  await expect(op.getByRole("heading", { name: `订单 ${orderNo}` })).toBeVisible();
}

/** A new learner's paid book order (on `page`), and the demo operator signed in in a browser of their own. */
async function paidOrderAndOperator(page: Page, browser: Browser, baseURL: string) {
  await signInNewLearner(page, "15");
  const orderNo = await paidBookOrder(page, baseURL);
  const operator = await otherBrowser(browser, baseURL);
  const op = operator.page;
  await signInDemo(op, "operator");
  return { orderNo, operator, op };
}

async function learnerOrderDialog(page: Page, orderNo: string, tab: string) {
  await page.goto(`/my/order?state=${tab}`);
  await waitForHydration(page);
  const card = page.locator(`[data-order-no="${orderNo}"]`);
  await card.getByRole("button", { name: "订单详情" }).click();
  return page.getByRole("dialog", { name: "订单详情" });
}

test("an operator ships a book order from the desk; the learner sees it shipped; the audit log has it", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  const { orderNo, operator, op } = await paidOrderAndOperator(page, browser, baseURL!);
  await op.goto("/admin");
  await waitForHydration(op);
  const toShip = op.getByRole("link", { name: /^待发货/ });
  await expect(toShip).toBeVisible();
  await op.screenshot({ path: `${SHOTS}/dashboard.png`, fullPage: true });
  await toShip.click();
  await op.waitForURL(/\/admin\/orders\?state=awaiting_shipment/);
  await expect(op.getByRole("link", { name: orderNo })).toBeVisible();
  await op.screenshot({ path: `${SHOTS}/orders.png`, fullPage: true });

  await openOnDesk(op, orderNo);
  const ship = op.getByRole("form", { name: "发货" });
  await ship.getByRole("button", { name: "确认发货" }).click();
  await expect(ship.getByText("快递单号应为 6–40 位字母或数字")).toBeVisible();
  await ship.getByLabel("快递公司").fill("顺丰速运");
  await ship.getByLabel("快递单号").fill("SF1357924680");
  await ship.getByRole("button", { name: "确认发货" }).click();
  await expect(op.getByRole("status").filter({ hasText: "已发货" })).toBeVisible();
  await expect(op.locator(".desk-state")).toHaveText("已发货");
  await expect(op.getByRole("form", { name: "发货" })).toHaveCount(0);
  await expect(op.getByText("顺丰速运 SF1357924680").first()).toBeVisible();
  await op.screenshot({ path: `${SHOTS}/order-shipped.png`, fullPage: true });

  // The learner's account, from the order: their orders and sessions.
  await op.locator(".desk-facts").getByRole("link").first().click();
  await op.waitForURL(/\/admin\/users\/\d+$/);
  await expect(op.getByRole("region", { name: /订单（共 1 笔/ })).toContainText(orderNo);
  await expect(op.getByRole("region", { name: /登录中的会话/ })).toBeVisible();
  await op.screenshot({ path: `${SHOTS}/user.png`, fullPage: true });
  await op.getByRole("link", { name: "返回账号列表" }).click();
  await op.waitForURL(/\/admin\/users$/);
  await expect(op.getByRole("table", { name: /^账号（共/ })).toBeVisible();
  await op.screenshot({ path: `${SHOTS}/users.png`, fullPage: true });

  const dialog = await learnerOrderDialog(page, orderNo, "all");
  await expect(dialog).toContainText("已发货");
  await expect(dialog).toContainText("SF1357924680");

  await op.goto(`/admin/audit?targetType=order&targetId=${orderNo}`);
  await waitForHydration(op);
  const log = op.getByRole("table");
  await expect(log).toContainText("order.ship");
  await expect(log).toContainText("SF1357924680");
  // Above the table, the hash chain's check over every record of the site.
  await expect(op.getByRole("status").filter({ hasText: "审计记录" })).toContainText(/审计记录完整（共 \d+ 条）/);
  await op.screenshot({ path: `${SHOTS}/audit-ship.png`, fullPage: true });

  expect(consoleErrors).toEqual([]);
  expect(operator.errors).toEqual([]);
  await operator.context.close();
});

test("a return reviewed end to end: turned down with a reason the learner reads, asked again and approved", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  const { orderNo, operator, op } = await paidOrderAndOperator(page, browser, baseURL!);
  const shipped = await op.request.post(`/api/admin/orders/${orderNo}/ship`, {
    data: { carrier: "中通快递", trackingNo: "ZT2468013579" },
    headers: { Origin: baseURL! },
  });
  expect(shipped.status()).toBe(200);

  // The learner receives the book and asks to return it.
  const askReturn = async (reason: string) => {
    await page.goto("/my/order?state=all");
    await waitForHydration(page);
    const card = page.locator(`[data-order-no="${orderNo}"]`);
    await card.getByRole("button", { name: "申请退款" }).click();
    const dialog = page.getByRole("dialog", { name: "申请退款" });
    await expect(dialog).toContainText("退货需客服审核");
    await dialog.getByLabel("退款原因").fill(reason);
    await dialog.getByRole("button", { name: "提交退货申请" }).click();
    await expect(dialog).toBeHidden();
  };
  await askReturn("书页有破损");

  // The operator finds it among the returns waiting and turns it down, saying why.
  await openOnDesk(op, orderNo, "?state=return_requested");
  const review = op.getByRole("group", { name: "审核退货" });
  await expect(review).toContainText("书页有破损");
  await op.screenshot({ path: `${SHOTS}/return-review.png`, fullPage: true });
  const reject = op.getByRole("form", { name: "不通过退货" });
  await reject.getByRole("button", { name: "不通过" }).click();
  await expect(reject.getByText("请填写不通过的原因")).toBeVisible();
  await reject.getByLabel("不通过的原因（告诉学员）").fill("请先拍照说明破损位置");
  await reject.getByRole("button", { name: "不通过" }).click();
  await expect(op.locator(".desk-state")).toHaveText("已发货");
  await expect(op.getByRole("group", { name: "审核退货" })).toHaveCount(0);
  await expect(op.locator('[data-refund-state="rejected"]')).toContainText("请先拍照说明破损位置");

  let dialog = await learnerOrderDialog(page, orderNo, "all");
  await expect(dialog).toContainText("退货申请未通过");
  await expect(dialog).toContainText("审核说明：请先拍照说明破损位置");
  await page.screenshot({ path: `${SHOTS}/learner-rejected.png`, fullPage: true });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // Asked again, with the photo's words; this time approved and the money goes back.
  await askReturn("第 35 页撕裂，已拍照");
  await op.reload();
  await waitForHydration(op);
  const approve = op.getByRole("form", { name: "通过退货" });
  await approve.getByLabel("审核说明（选填，学员可见）").fill("同意退货，请寄回");
  await approve.getByRole("button", { name: "通过并退款" }).click();
  await expect(op.locator(".desk-state")).toHaveText("已退款");
  await op.screenshot({ path: `${SHOTS}/return-approved.png`, fullPage: true });

  dialog = await learnerOrderDialog(page, orderNo, "refund");
  await expect(dialog).toContainText("已退款");
  await expect(dialog).toContainText("审核说明：同意退货，请寄回");

  await op.goto(`/admin/audit?targetType=order&targetId=${orderNo}`);
  await waitForHydration(op);
  const log = op.getByRole("table");
  for (const action of ["order.ship", "order.return.reject", "order.return.approve"])
    await expect(log).toContainText(action);
  await expect(log).toContainText("请先拍照说明破损位置");

  expect(consoleErrors).toEqual([]);
  expect(operator.errors).toEqual([]);
  await operator.context.close();
});

test("an operator disables an account: its session ends and signing in says so in Chinese; enabled again, it signs in", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  // A learner with an e-mail and password, made through the API the login dialog uses.
  const email = freshEmail("disabled");
  const password = "Ink-and-paper-2026";
  await page.goto("/");
  await waitForHydration(page);
  const post = (path: string, body: unknown) =>
    page.evaluate(
      async ([p, b]) =>
        (
          await fetch(p as string, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify(b),
          })
        ).status,
      [path, body],
    );
  expect(await post("/api/auth/email/send", { email, purpose: "register" })).toBe(200);
  const code = await readCode(page, email, "register");
  expect(await post("/api/auth/email/register", { email, code, password, nickname: "停用测试" })).toBe(201);
  await page.reload();
  await loadedAgain(page);

  const operator = await otherBrowser(browser, baseURL!);
  const op = operator.page;
  await signInDemo(op, "operator");
  await op.goto("/admin/users");
  await waitForHydration(op);
  const search = op.getByRole("search", { name: "筛选账号" });
  await search.getByLabel("搜索").fill(email);
  await search.getByRole("button", { name: "筛选" }).click();
  await expect(op.getByRole("table", { name: /^账号（共 1 条）/ })).toBeVisible();
  await op.getByRole("link", { name: "停用测试" }).click();
  await op.waitForURL(/\/admin\/users\/\d+$/);
  const disable = op.getByRole("form", { name: "停用账号" });
  await disable.getByRole("button", { name: "停用" }).click();
  await expect(disable.getByText("请填写原因（至少 2 个字）")).toBeVisible();
  await disable.getByLabel("原因（记入操作记录）").fill("冒用他人身份");
  await disable.getByRole("button", { name: "停用" }).click();
  await expect(op.getByRole("status").filter({ hasText: "账号已停用" })).toBeVisible();
  await expect(op.locator(".desk-status")).toHaveText("已停用");
  await expect(op.getByRole("region", { name: /登录中的会话（0）/ })).toBeVisible();
  await op.screenshot({ path: `${SHOTS}/user-disabled.png`, fullPage: true });

  // The learner's session has ended; signing in again is refused, in Chinese.
  await page.reload();
  await waitForHydration(page);
  await expect(userMenu(page)).toHaveCount(0);
  let dialog = await openLoginDialog(page);
  await dialog.getByRole("tab", { name: "邮箱" }).click();
  await dialog.getByRole("textbox", { name: "邮箱", exact: true }).fill(email);
  await dialog.getByLabel("密码", { exact: true }).fill(password);
  await dialog.getByRole("button", { name: "登录", exact: true }).click();
  await expect(dialog.getByRole("alert")).toHaveText("该账号已停用，请联系客服");
  await page.screenshot({ path: `${SHOTS}/login-disabled.png` });

  const enable = op.getByRole("form", { name: "启用账号" });
  await enable.getByLabel("原因（记入操作记录）").fill("核实为本人");
  await enable.getByRole("button", { name: "启用" }).click();
  await expect(op.locator(".desk-status")).toHaveText("正常");

  await page.reload();
  await waitForHydration(page);
  dialog = await openLoginDialog(page);
  await dialog.getByRole("tab", { name: "邮箱" }).click();
  await dialog.getByRole("textbox", { name: "邮箱", exact: true }).fill(email);
  await dialog.getByLabel("密码", { exact: true }).fill(password);
  await dialog.getByRole("button", { name: "登录", exact: true }).click();
  await skipCompleteInfo(page);

  await op.getByRole("link", { name: "操作记录" }).click();
  await op.waitForURL(/\/admin\/audit\?/);
  const log = op.getByRole("table");
  await expect(log).toContainText("user.disable");
  await expect(log).toContainText("冒用他人身份");
  await expect(log).toContainText("user.enable");

  // The refused sign-in answered 403: that one console line is expected.
  expect(consoleErrors.filter((e) => !e.includes("403"))).toEqual([]);
  expect(operator.errors).toEqual([]);
  await operator.context.close();
});
