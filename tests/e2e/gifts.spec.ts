/**
 * Gifts in the browser (issue "Commerce" §4): account A buys a course as a gift from its page
 * (gift dialog → sandbox checkout → the result shows the claim link and code, copied with one
 * click), sees in /my/order that it cannot be refunded yet (giveaway-refund dialog); account B, in
 * another browser, opens the link as a visitor, signs in from the giveaway dialog, claims the
 * course and its locked lesson plays; A's order then shows the gift 已领取. No console errors.
 */
import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import type { CourseSummary } from "../../shared/contracts/catalogue";
import { dialogsSettled, expect, otherBrowser, test, waitForHydration } from "./fixtures";
import { payInSandbox } from "./checkout";
import { freshPhone, openLoginDialog, phoneLogin, skipCompleteInfo } from "./login-helpers";
import { formatMoney } from "../../shared/money";

const SHOTS = "test-results/shots-gifts";
mkdirSync(SHOTS, { recursive: true });

/** Phone login in an open login dialog, skipping the profile step; the page reloads signed in. */
async function signInWith(page: Page, dialog: ReturnType<Page["getByRole"]>) {
  await phoneLogin(page, dialog, freshPhone("19"));
  await skipCompleteInfo(page);
}

/** A paid recorded course and the id of one of its locked (non-trial) lessons. */
async function courseWithLockedLesson(page: Page): Promise<{ course: CourseSummary; lockedId: number }> {
  const res = await page.request.get("/api/courses?pageSize=48&sort=price_asc&price=paid");
  const { items } = (await res.json()) as { items: CourseSummary[] };
  const course = items.find((c) => c.kind === "recorded" && c.priceCents >= 1000)!;
  expect(course).toBeTruthy();
  const detail = (await (await page.request.get(`/api/courses/${course.id}`)).json()) as {
    chapters: Array<{ lessons: Array<{ id: number; isTrial: boolean }> }>;
  };
  const lockedId = detail.chapters.flatMap((c) => c.lessons).find((l) => !l.isTrial)!.id;
  return { course, lockedId };
}

/** A screenshot once the top dialog has finished fading in. */
async function shot(page: Page, name: string) {
  await dialogsSettled(page);
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

test("a gift bought by one account is claimed by another, who can then learn the course", async ({
  page,
  browser,
  consoleErrors,
}) => {
  // ── A buys the gift ──
  await page.goto("/");
  await waitForHydration(page);
  await signInWith(page, await openLoginDialog(page));
  const { course, lockedId } = await courseWithLockedLesson(page);

  await page.goto(`/course/${course.id}`);
  await waitForHydration(page);
  await page.getByRole("button", { name: "赠送好友" }).click();
  const giftDialog = page.getByRole("dialog", { name: "赠送好友" });
  await expect(giftDialog).toBeVisible();
  await expect(giftDialog.getByText(course.title)).toBeVisible();
  await expect(giftDialog.getByText("支付后你会得到一个领取链接和领取码")).toBeVisible();
  await giftDialog.getByLabel(/赠言/).fill("愿你笔下生花，一起练字吧");
  await expect(giftDialog.getByText("12/100")).toBeVisible();
  await shot(page, "gift-dialog");
  await giftDialog.getByRole("button", { name: /^去支付/ }).click();

  const orderNo = await payInSandbox(page);
  const share = page.getByTestId("gift-share");
  await expect(share).toBeVisible();
  const link = await share.getByLabel("领取链接").inputValue();
  const code = await share.getByLabel("领取码").inputValue();
  expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
  expect(link).toBe(`${new URL(page.url()).origin}/course/${course.id}?gift=${code}`);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await share.getByRole("button", { name: "复制领取链接" }).click();
  await expect(share.getByText("已复制")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await page.screenshot({ path: `${SHOTS}/payment-result.png`, fullPage: true });

  // Not refundable while the friend can still claim it: the giveaway-refund dialog says until when.
  await page.goto("/my/order");
  await waitForHydration(page);
  const card = page.locator(`[data-order-no="${orderNo}"]`);
  await expect(card).toContainText("礼物");
  await expect(card).toContainText("待领取");
  await card.getByRole("button", { name: "申请退款" }).click();
  const refundDialog = page.getByRole("dialog", { name: "礼物退款" });
  await expect(refundDialog.getByRole("alert")).toContainText(/暂不能退款：礼物领取期至 \d{4}-\d\d-\d\d \d\d:\d\d/);
  await shot(page, "giveaway-refund-dialog");
  await refundDialog.getByRole("button", { name: "知道了" }).click();
  await expect(refundDialog).toBeHidden();

  // ── B opens the link in another browser, signs in from the dialog and claims ──
  const {
    context: other,
    page: friend,
    errors: friendErrors,
  } = await otherBrowser(browser, new URL(page.url()).origin);

  await friend.goto(link);
  await waitForHydration(friend);
  const giveaway = friend.getByRole("dialog", { name: "好友送你一门课" });
  await expect(giveaway).toBeVisible();
  await expect(giveaway.getByText(course.title)).toBeVisible();
  await expect(giveaway.getByText("愿你笔下生花，一起练字吧")).toBeVisible();
  await expect(giveaway.getByText(`价值 ${formatMoney(course.priceCents)}`)).toBeVisible();
  await shot(friend, "giveaway-dialog-visitor");
  await giveaway.getByRole("button", { name: "登录后领取" }).click();
  await signInWith(friend, friend.getByRole("dialog", { name: "登录墨池课堂" }));

  // The page comes back with the link: the dialog opens again, now with the claim button.
  await expect(giveaway).toBeVisible();
  await shot(friend, "giveaway-dialog");
  await giveaway.getByRole("button", { name: "领取课程" }).click();
  const done = friend.getByRole("dialog", { name: "领取成功" });
  await expect(done.getByText(`《${course.title}》已放进你的课程`)).toBeVisible();
  await shot(friend, "giveaway-claimed");
  await done.getByRole("button", { name: "留在本页" }).click();
  await expect(done).toBeHidden();
  await expect(friend).toHaveURL(new RegExp(`/course/${course.id}$`));
  await expect(friend.locator(".course-hero__enrolled")).toHaveText("已报名");
  // Having the course, B can pass it on too.
  await expect(friend.getByRole("link", { name: "继续学习" })).toBeVisible();
  await expect(friend.getByRole("button", { name: "赠送好友" })).toBeVisible();
  await shot(friend, "course-enrolled");

  await friend.goto(`/video/${lockedId}`);
  await waitForHydration(friend);
  await expect(friend.locator("video")).toHaveCount(1);
  await expect(friend.getByText("购买课程后即可学习")).toHaveCount(0);

  // The link again: claimed, and by this learner.
  await friend.goto(link);
  await waitForHydration(friend);
  await expect(friend.getByRole("dialog", { name: "好友送你一门课" }).getByText("你已领取这份礼物")).toBeVisible();
  await other.close();

  // ── A sees the gift claimed ──
  await page.goto("/my/order");
  await waitForHydration(page);
  await expect(card).toContainText("已完成");
  await expect(card.getByRole("button", { name: "申请退款" })).toHaveCount(0);
  await shot(page, "order-list");
  await card.getByRole("button", { name: "订单详情" }).click();
  const detail = page.getByRole("dialog", { name: "订单详情" });
  await expect(detail.getByText("已领取", { exact: true })).toBeVisible();
  await expect(detail).toContainText("订单完成：好友已领取礼物");
  await expect(detail.getByText(code)).toBeVisible();
  await shot(page, "order-detail-claimed");

  // A code typed by hand (any case, no dashes) opens the same gift; it is A's own and claimed.
  await page.goto(`/course/${course.id}`);
  await waitForHydration(page);
  await page.getByRole("button", { name: "收到礼物？输入领取码" }).click();
  const typed = page.getByRole("dialog", { name: "领取礼物" });
  await typed.getByLabel("领取码").fill("abc");
  await typed.getByRole("button", { name: "查看礼物" }).click();
  await expect(typed.getByText(/领取码是 12 位字母或数字/)).toBeVisible();
  await typed.getByLabel("领取码").fill(code.replace(/-/g, "").toLowerCase());
  await shot(page, "giveaway-code-entry");
  await typed.getByRole("button", { name: "查看礼物" }).click();
  const own = page.getByRole("dialog", { name: "你赠送的礼物" });
  await expect(own.getByRole("alert")).toHaveText("不能领取自己赠送的课程");
  await expect(page).toHaveURL(new RegExp(`\\?gift=${code.replace(/-/g, "")}$`));
  await own.getByRole("button", { name: "知道了" }).click();
  await expect(own).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/course/${course.id}$`));

  expect(consoleErrors).toEqual([]);
  expect(friendErrors).toEqual([]);
});
