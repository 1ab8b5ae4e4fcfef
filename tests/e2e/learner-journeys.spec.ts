/**
 * What a new learner runs into, journey by journey: the lesson position survives a reload, a
 * closed tab and another device; deletion asks for a code and freezes the account; actions are
 * offered only when they can succeed; the personal centre's overview, activities, and the demo
 * catalogue's own outlines and brush-drawn title cards.
 */
import type { Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";
import { freshPhone, readCode, SHOTS } from "./login-helpers";

const video = (page: Page) => page.locator("video");
const player = (page: Page) => page.getByRole("region", { name: /^视频播放器/ });
const currentTime = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => v.currentTime);

/** A learner nobody has seen, signed in with an SMS code through the API (same cookies as the page). */
async function signInFresh(page: Page): Promise<string> {
  const phone = freshPhone("16");
  const origin = new URL(page.url() === "about:blank" ? "http://x" : page.url()).origin;
  const headers = { Origin: origin };
  expect((await page.request.post("/api/auth/sms/send", { data: { phone }, headers })).status()).toBe(200);
  const code = await readCode(page, phone, "login");
  expect((await page.request.post("/api/auth/sms/login", { data: { phone, code }, headers })).status()).toBe(200);
  return phone;
}

async function playTo(page: Page, seconds: number) {
  await video(page).evaluate((v: HTMLVideoElement) => {
    v.muted = true;
  });
  await player(page).getByRole("button", { name: "播放" }).first().click();
  await expect.poll(() => currentTime(page), { timeout: 20_000 }).toBeGreaterThan(seconds);
}

async function expectResumedNear(page: Page, seconds: number) {
  await expect
    .poll(() => currentTime(page), { message: `resumed near ${seconds} s` })
    .toBeGreaterThanOrEqual(Math.floor(seconds) - 1);
}

test.describe("a new learner's journeys", () => {
  test("1 · the lesson position survives a reload while playing, a closed tab and another device", async ({
    page,
    browser,
    baseURL,
    consoleErrors,
  }) => {
    await page.goto("/");
    await signInFresh(page);
    await page.goto("/video/1");
    await waitForHydration(page);
    await playTo(page, 10);
    // F5 while it plays: no pause, no 15-s report before.
    await page.reload();
    await waitForHydration(page);
    await expectResumedNear(page, 10);

    // The tab is closed while it plays; a new tab opens the lesson there.
    await playTo(page, 13);
    const context = page.context();
    await page.close({ runBeforeUnload: true });
    const again = await context.newPage();
    await again.goto("/video/1");
    await waitForHydration(again);
    await expectResumedNear(again, 13);

    // Another device: the same account, nothing in that browser's storage.
    const cookies = await context.cookies();
    const other = await browser.newContext({ baseURL, locale: "zh-CN", viewport: { width: 1280, height: 800 } });
    await other.addCookies(cookies);
    const device = await other.newPage();
    await device.goto("/video/1");
    await waitForHydration(device);
    await expectResumedNear(device, 13);
    await other.close();
    expect(consoleErrors).toEqual([]);
  });

  test("2, 5, 8, 10 · deletion asks for a code; /my shows today; the user menu; brush covers", async ({
    page,
    consoleErrors,
  }) => {
    test.setTimeout(180_000);
    await page.goto("/");
    const phone = await signInFresh(page);
    // One code per number a minute, whatever it is for: the deletion code waits for the login code's.
    const codeAllowedAt = Date.now() + 61_000;
    await page.goto("/");
    await waitForHydration(page);
    await page.screenshot({ path: `${SHOTS}/i16-home.png` });
    await page.getByRole("banner").locator(".user-menu__summary").click();
    const menu = page.getByRole("banner").locator(".user-menu__panel");
    for (const name of ["个人中心", "我的课程", "我的订单", "我的作业", "练字日记", "退出"])
      await expect(menu.getByRole("link", { name })).toBeVisible();

    await page.goto("/my");
    await waitForHydration(page);
    await expect(page.getByRole("heading", { name: "今日签到" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "下一场直播" })).toBeVisible();
    await expect(page.getByRole("img", { name: /近 8 周每周学习时长/ })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/i16-my.png`, fullPage: true });

    await page.goto("/my/security#deletion");
    await waitForHydration(page);
    const section = page.locator("#deletion");
    await section.getByRole("checkbox").check();
    await section.getByLabel("请输入“注销”确认").fill("注销");
    await page.waitForTimeout(Math.max(0, codeAllowedAt - Date.now()));
    await section.getByRole("button", { name: "获取验证码" }).click();
    const code = await readCode(page, phone, "deletion");
    await section.getByLabel("验证码", { exact: true }).fill(code);
    await section.screenshot({ path: `${SHOTS}/i16-deletion.png` });
    await section.getByRole("button", { name: "申请注销" }).click();
    await expect(section.getByText("注销申请已提交")).toBeVisible();

    // Frozen: buying is refused with how to withdraw.
    await page.goto("/course/2");
    await waitForHydration(page);
    await page.getByRole("button", { name: "立即购买" }).click();
    await expect(page.getByText(/账号正在注销冷静期，已冻结，不能购买或支付/).first()).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/i16-frozen-buy.png` });
    expect(consoleErrors.filter((e) => !e.includes("403"))).toEqual([]);
  });
});
