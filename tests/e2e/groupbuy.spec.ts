/**
 * Group buying (issue "Commerce" §5) in three browsers: a leader starts a group of three from the
 * course page and pays through the sandbox checkout; two friends open the shared /groupbuy link,
 * join and pay; everyone sees 已成团 and the course's locked lesson plays. A second group whose
 * time runs out (test fixture) says 未成团 and its order is 已退款. No console errors anywhere.
 */
import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { dialogsSettled, expect, otherBrowser, test, waitForHydration } from "./fixtures";
import { payInSandbox } from "./checkout";
import { signInNewLearner } from "./login-helpers";
import { formatMoney } from "../../shared/money";

const SHOTS = "test-results/shots-groups";
mkdirSync(SHOTS, { recursive: true });

interface GroupCourse {
  id: number;
  title: string;
  priceCents: number;
  groupBuy: { campaignId: number; groupSize: number; groupPriceCents: number } | null;
  chapters: Array<{ lessons: Array<{ id: number; isTrial: boolean }> }>;
}

/** The `skip`-th recorded course with a group buy of three. */
async function groupCourse(page: Page, skip = 0): Promise<GroupCourse> {
  const list = (await (await page.request.get("/api/courses?pageSize=48&price=paid&kind=recorded")).json()) as {
    items: Array<{ id: number }>;
  };
  const found: GroupCourse[] = [];
  for (const item of list.items) {
    const course = (await (await page.request.get(`/api/courses/${item.id}`)).json()) as GroupCourse;
    if (course.groupBuy?.groupSize === 3) found.push(course);
    if (found.length > skip) return course;
  }
  throw new Error("no course with a group buy of three");
}

/** Pays the group order on the payment page: the group price, 15 minutes to pay. */
const payGroupOrder = (page: Page, amountCents: number) =>
  payInSandbox(page, async () => {
    await expect(page.getByTestId("pay-amount")).toHaveText(formatMoney(amountCents));
    await expect(page.getByTestId("pay-countdown")).toHaveText(/^(14|15):\d\d$/);
  });

/** The leader starts a group from the course page's dialog, pays, and gets the group's number. */
async function startAndPay(page: Page, course: GroupCourse, shot?: string) {
  await page.goto(`/course/${course.id}`);
  await waitForHydration(page);
  const entry = page.getByRole("button", { name: "拼团购买" });
  await expect(entry).toContainText(formatMoney(course.groupBuy!.groupPriceCents));
  await entry.click();
  const dialog = page.getByRole("dialog", { name: "拼团购买" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("3 人成团");
  await expect(dialog).toContainText("只有真实学员");
  await expect(dialog).toContainText("自动全额原路退款");
  // The open groups have loaded (or there are none yet).
  await expect(dialog.locator(".group-dialog__empty, .group-row").first()).toBeVisible();
  if (shot) {
    await dialogsSettled(page);
    await page.screenshot({ path: `${SHOTS}/${shot}` });
  }
  const started = page.waitForResponse((r) => r.url().endsWith("/api/groups") && r.request().method() === "POST");
  await dialog.getByRole("button", { name: /^发起拼团/ }).click();
  const { groupNo } = (await (await started).json()) as { groupNo: string };
  expect(groupNo).toMatch(/^GB\d{14}$/);
  const orderNo = await payGroupOrder(page, course.groupBuy!.groupPriceCents);
  return { groupNo, orderNo };
}

test("three browsers complete a group of three; the lesson unlocks for all of them", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  test.setTimeout(240_000);
  await signInNewLearner(page, "13");
  const course = await groupCourse(page);
  const price = course.groupBuy!.groupPriceCents;
  const lockedId = course.chapters.flatMap((c) => c.lessons).find((l) => !l.isTrial)!.id;
  const { groupNo } = await startAndPay(page, course, "dialog.png");

  // The leader's group is open: a 24 h countdown, one member of three, an invitation with a QR code.
  await page.goto(`/groupbuy/${groupNo}`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "拼团中" })).toBeVisible();
  await expect(page.getByTestId("group-countdown")).toHaveText(/^(23:59:\d\d|1 天 00:00:00)$/);
  await expect(page.getByText("1/3 人已参团")).toBeVisible();
  await expect(page.locator(".group-seat__badge")).toHaveText("团长");
  await expect(page.getByText("你已在团中，邀请好友一起参团吧。")).toBeVisible();
  await page.getByText("邀请好友", { exact: true }).click();
  await expect(page.getByRole("img", { name: "拼团页面二维码" })).toBeVisible();
  await expect(page.getByLabel("拼团链接")).toHaveValue(`${baseURL}/groupbuy/${groupNo}`);
  await page.screenshot({ path: `${SHOTS}/group-open-leader.png`, fullPage: true });

  // A friend opens the shared link: signed out they see the group and sign in to join.
  const friend = await otherBrowser(browser, baseURL!);
  await friend.page.goto(`/groupbuy/${groupNo}`);
  await waitForHydration(friend.page);
  await expect(friend.page.getByRole("heading", { name: "拼团中" })).toBeVisible();
  await friend.page.screenshot({ path: `${SHOTS}/group-open-visitor.png`, fullPage: true });
  await signInNewLearner(friend.page, "13");
  await friend.page.goto(`/groupbuy/${groupNo}`);
  await waitForHydration(friend.page);
  await friend.page.getByRole("button", { name: `参加拼团 ${formatMoney(price)}` }).click();
  await friend.page.waitForURL(/\/payment\?order=M\d{20}$/);

  // While the friend is at the checkout, the leader sees their seat as 支付中.
  await page.reload();
  await waitForHydration(page);
  await expect(page.locator(".group-seat--paying")).toHaveCount(1);
  await expect(page.locator(".group-seat--empty")).toHaveCount(1);
  await page.screenshot({ path: `${SHOTS}/group-paying.png`, fullPage: true });
  await payGroupOrder(friend.page, price);

  // The third learner sees the group in the course page's dialog too, then fills it from the link.
  const third = await otherBrowser(browser, baseURL!);
  await signInNewLearner(third.page, "13");
  await third.page.goto(`/course/${course.id}`);
  await waitForHydration(third.page);
  await third.page.getByRole("button", { name: "拼团购买" }).click();
  const listed = third.page.getByRole("dialog", { name: "拼团购买" }).locator(`a[href="/groupbuy/${groupNo}"]`);
  await expect(listed).toContainText("还差 1 人成团");
  await expect(listed).toContainText(/剩余\s*23:\d\d:\d\d/);
  await dialogsSettled(third.page);
  await third.page.screenshot({ path: `${SHOTS}/dialog-open-groups.png` });
  await third.page.goto(`/groupbuy/${groupNo}`);
  await waitForHydration(third.page);
  await expect(third.page.getByText("2/3 人已参团")).toBeVisible();
  await third.page.getByRole("button", { name: `参加拼团 ${formatMoney(price)}` }).click();
  await payGroupOrder(third.page, price);

  for (const who of [page, friend.page, third.page]) {
    await who.goto(`/groupbuy/${groupNo}`);
    await waitForHydration(who);
    await expect(who.getByRole("heading", { name: "已成团" })).toBeVisible();
    await expect(who.getByText("3/3 人已参团")).toBeVisible();
    await expect(who.locator(".group-seat")).toHaveCount(3);
    await expect(who.getByRole("link", { name: "去学习" })).toHaveAttribute("href", /^\/video\/\d+$/);
  }
  await third.page.screenshot({ path: `${SHOTS}/group-complete.png`, fullPage: true });
  for (const who of [page, friend.page, third.page]) {
    await who.goto(`/video/${lockedId}`);
    await waitForHydration(who);
    await expect(who.locator("video")).toHaveCount(1);
    await expect(who.getByText("购买课程后即可学习")).toHaveCount(0);
  }

  // A fourth learner finds the group full and is pointed to start their own.
  const late = await otherBrowser(browser, baseURL!);
  await signInNewLearner(late.page, "13");
  await late.page.goto(`/groupbuy/${groupNo}`);
  await waitForHydration(late.page);
  await expect(late.page.getByText("该团已成团，可以发起新的拼团")).toBeVisible();
  await expect(late.page.getByRole("button", { name: /^参加拼团/ })).toHaveCount(0);

  expect(friend.errors).toEqual([]);
  expect(third.errors).toEqual([]);
  expect(late.errors).toEqual([]);
  expect(consoleErrors).toEqual([]);
  await Promise.all([friend.context.close(), third.context.close(), late.context.close()]);
});

test("a group whose time runs out says 未成团 and its order is refunded", async ({ page, baseURL, consoleErrors }) => {
  test.setTimeout(120_000);
  await signInNewLearner(page, "13");
  const course = await groupCourse(page, 1);
  const { groupNo, orderNo } = await startAndPay(page, course);

  const expired = await page.request.post("/api/groups/__test/expire", {
    data: { groupNo },
    headers: { Origin: baseURL! },
  });
  expect(expired.status()).toBe(200);
  expect(((await expired.json()) as { refunded: string[] }).refunded).toContain(orderNo);

  await page.goto(`/groupbuy/${groupNo}`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "未成团" })).toBeVisible();
  await expect(page.getByText(/已原路退款/)).toBeVisible();
  await expect(page.locator(".group-seat__note")).toHaveText("已退款");
  await page.screenshot({ path: `${SHOTS}/group-failed.png`, fullPage: true });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.screenshot({ path: `${SHOTS}/group-failed-1920.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole("link", { name: "查看退款订单" }).click();
  await page.waitForURL("**/my/order?state=refund");
  await waitForHydration(page);
  await expect(page.locator(`[data-order-no="${orderNo}"]`)).toContainText("已退款");
  await page.screenshot({ path: `${SHOTS}/order-refunded.png`, fullPage: true });
  expect(consoleErrors).toEqual([]);
});
