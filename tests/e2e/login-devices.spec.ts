/**
 * Logins that involve a second device, each in its own browser context: scan-code (QR) login
 * confirmed or cancelled on a phone, and confirming a new device for an account with device
 * protection. Codes are read from /dev/outbox; each test uses its own phone number or address.
 */
import type { Browser, Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";
import {
  SHOTS,
  freshEmail as freshAddress,
  freshPhone as freshNumber,
  readCode,
  serial,
  unexpected,
} from "./login-helpers";

const freshPhone = () => freshNumber("17");
const freshEmail = () => freshAddress("device");

/** A same-origin JSON POST from the page (as the site's own scripts make them). */
async function post(page: Page, path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  return page.evaluate(
    async ([p, b]) => {
      const res = await fetch(p as string, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(b),
      });
      return { status: res.status, json: await res.json().catch(() => null) };
    },
    [path, body] as const,
  );
}

/** A phone (its own browser context) signed in with a fresh number, info skipped. */
async function signedInPhone(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const phonePage = await context.newPage();
  const phone = freshPhone();
  await phonePage.goto("/");
  expect((await post(phonePage, "/api/auth/sms/send", { phone })).status).toBe(200);
  const code = await readCode(phonePage, phone, "login");
  expect((await post(phonePage, "/api/auth/sms/login", { phone, code })).json).toEqual({
    status: "ok",
    next: "complete_info",
  });
  expect((await post(phonePage, "/api/auth/info/skip", {})).status).toBe(200);
  return { context, phonePage, nickname: `墨友${phone.slice(-4)}` };
}

async function openScanTab(page: Page) {
  await page.goto("/");
  await waitForHydration(page);
  const ticketAnswer = page.waitForResponse(
    (r) => new URL(r.url()).pathname === "/api/auth/qr" && r.request().method() === "POST",
  );
  await page.getByRole("banner").getByRole("button", { name: "登录 / 注册" }).click();
  const dialog = page.getByRole("dialog", { name: "登录墨池课堂" });
  await dialog.getByRole("tab", { name: "扫码" }).click();
  const { confirmUrl } = (await (await ticketAnswer).json()) as { confirmUrl: string };
  await expect(dialog.getByRole("img", { name: "扫码登录二维码" })).toBeVisible();
  await expect(dialog.getByRole("status")).toHaveText("请使用已登录的手机扫描二维码");
  return { dialog, confirmPath: new URL(confirmUrl).pathname };
}

test.describe("scan-code login", () => {
  test("a signed-in phone confirms and the computer is signed in", async ({ page, browser, consoleErrors }) => {
    const { context, phonePage, nickname } = await signedInPhone(browser);
    const { dialog, confirmPath } = await openScanTab(page);
    expect(confirmPath).toMatch(/^\/m\/qr\/[A-Za-z0-9_-]+$/);

    await phonePage.goto(confirmPath);
    await waitForHydration(phonePage);
    await expect(dialog.getByRole("status")).toHaveText("已扫码，请在手机上确认登录");
    await page.screenshot({ path: `${SHOTS}/login-qr-scanned.png` });
    await phonePage.getByRole("button", { name: "确认登录" }).click();

    await page.waitForLoadState("load");
    await waitForHydration(page);
    await expect(page.getByRole("banner").locator(".user-menu__summary")).toHaveText(nickname);
    await context.close();
    expect(consoleErrors).toEqual([]);
  });

  test("a ticket cancelled on the phone offers a fresh code (刷新二维码)", async ({ page, browser, consoleErrors }) => {
    const { context, phonePage } = await signedInPhone(browser);
    const { dialog, confirmPath } = await openScanTab(page);
    const firstCode = await dialog.getByRole("img", { name: "扫码登录二维码" }).innerHTML();

    await phonePage.goto(confirmPath);
    await waitForHydration(phonePage);
    await phonePage.getByRole("button", { name: "取消" }).click();
    await expect(dialog.getByRole("status")).toHaveText("已在手机上取消登录");
    const refresh = dialog.getByRole("button", { name: "刷新二维码" });
    await expect(refresh).toBeFocused();
    await page.screenshot({ path: `${SHOTS}/login-qr-cancelled.png` });

    const next = page.waitForResponse(
      (r) => new URL(r.url()).pathname === "/api/auth/qr" && r.request().method() === "POST",
    );
    await refresh.click();
    expect((await next).status()).toBe(201);
    await expect(dialog.getByRole("status")).toHaveText("请使用已登录的手机扫描二维码");
    await expect(refresh).toHaveCount(0);
    expect(await dialog.getByRole("img", { name: "扫码登录二维码" }).innerHTML()).not.toBe(firstCode);
    await context.close();
    expect(consoleErrors).toEqual([]);
  });
});

test.describe("bind device", () => {
  test("an account with device protection confirms a new browser with a code", async ({
    page,
    browser,
    consoleErrors,
  }) => {
    test.setTimeout(150_000);
    const email = freshEmail();
    const password = "inkStone2026";
    const nickname = `砚台${serial}`;

    // The first device: register and turn device protection on.
    const first = await browser.newContext();
    const firstPage = await first.newPage();
    await firstPage.goto("/");
    expect((await post(firstPage, "/api/auth/email/send", { email, purpose: "register" })).status).toBe(200);
    const code = await readCode(firstPage, email, "register");
    expect((await post(firstPage, "/api/auth/email/register", { email, code, password, nickname })).status).toBe(201);
    expect((await post(firstPage, "/api/auth/info/skip", {})).status).toBe(200);
    expect((await post(firstPage, "/api/me/device-protection", { enabled: true })).status).toBe(200);
    await first.close();

    // This browser is new to the account.
    await page.goto("/");
    await waitForHydration(page);
    await page.getByRole("banner").getByRole("button", { name: "登录 / 注册" }).click();
    const login = page.getByRole("dialog", { name: "登录墨池课堂" });
    await login.getByRole("tab", { name: "邮箱" }).click();
    await login.getByRole("textbox", { name: "邮箱", exact: true }).fill(email);
    await login.getByLabel("密码", { exact: true }).fill(password);
    await login.getByRole("button", { name: "登录", exact: true }).click();

    const device = page.getByRole("dialog", { name: "验证新设备" });
    await expect(device.getByText(/邮箱 d\*\*\*@example\.com/)).toBeVisible();
    await expect(device.getByLabel("验证码", { exact: true })).toBeFocused();
    await page.screenshot({ path: `${SHOTS}/login-device.png` });
    // The registration code went to the same address moments ago: the 429's Retry-After counts down.
    await device.getByRole("button", { name: "获取验证码" }).click();
    await expect(device.getByRole("alert")).toHaveText(/请 \d+ 秒后再获取验证码/);
    await expect(device.getByRole("button", { name: /^\d+ 秒后重发$/ })).toBeDisabled();
    await expect(device.getByRole("button", { name: "获取验证码" })).toBeEnabled({ timeout: 70_000 });
    await device.getByRole("button", { name: "获取验证码" }).click();
    await expect(device.getByRole("button", { name: /^\d+ 秒后重发$/ })).toBeDisabled();
    await device.getByLabel("验证码", { exact: true }).fill(await readCode(page, email, "device"));
    await device.getByRole("button", { name: "验证并登录" }).click();

    await page.waitForLoadState("load");
    await waitForHydration(page);
    await expect(page.getByRole("banner").locator(".user-menu__summary")).toHaveText(nickname);
    expect(unexpected(consoleErrors, 429)).toEqual([]);
  });
});
