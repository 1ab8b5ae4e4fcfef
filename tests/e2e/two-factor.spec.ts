/**
 * Two-factor login for staff and step-up in a real browser (decision 072): a new operator turns
 * it on on a phone (the QR code's secret is read from the text beside it, as a person who cannot
 * scan would type it, and the app's code is computed here with the same library), keeps the
 * recovery codes, signs in on a computer (scan-code login) with one of them, and a guarded change
 * in the console asks for the app's code before it goes through.
 */
import type { Browser, Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { expect, test, waitForHydration } from "./fixtures";
import { signInDemo } from "./homework-helpers";
import { SHOTS, freshPhone, loadedAgain, openLoginDialog, readCode } from "./login-helpers";
import { fits, layoutProblems } from "./phone-layout";

/** A same-origin JSON call from the page (as the site's own scripts make them). */
async function api(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ([m, p, b]) => {
      const res = await fetch(p as string, {
        method: m as string,
        headers: { "Content-Type": "application/json" },
        body: b === undefined ? undefined : JSON.stringify(b),
      });
      return { status: res.status, json: (await res.json().catch(() => null)) as Record<string, unknown> | null };
    },
    [method, path, body] as const,
  );
}

/** A fresh account signed in with an SMS code (info skipped) in its own browser context. */
async function freshAccount(browser: Browser, options: Parameters<Browser["newContext"]>[0] = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const phone = freshPhone("16");
  await page.goto("/");
  expect((await api(page, "POST", "/api/auth/sms/send", { phone })).status).toBe(200);
  const code = await readCode(page, phone, "login");
  expect((await api(page, "POST", "/api/auth/sms/login", { phone, code })).status).toBe(200);
  expect((await api(page, "POST", "/api/auth/info/skip", {})).status).toBe(200);
  const me = await api(page, "GET", "/api/auth/me");
  const id = (me.json?.viewer as { id: number }).id;
  return { context, page, phone, id };
}

const PERIOD_MS = 30_000;

test("an operator turns on two-factor login on a phone, signs in with a recovery code, and steps up for a role change", async ({
  page,
  browser,
  consoleErrors,
}) => {
  test.setTimeout(150_000);
  // The demo operator (signed in with the password) makes the new account an operator.
  const someone = await freshAccount(browser);
  const newcomer = await freshAccount(browser, {
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  await signInDemo(page, "operator");
  expect(
    (await api(page, "POST", `/api/admin/users/${newcomer.id}/role`, { action: "grant", role: "operator" })).status,
  ).toBe(200);

  // On the phone: 账号与安全 → 两步验证.
  const phone = newcomer.page;
  await phone.goto("/my/security");
  await waitForHydration(phone);
  const section = phone.getByRole("region", { name: "两步验证" });
  await section.getByRole("button", { name: "开启两步验证" }).click();
  await expect(section.getByRole("img", { name: "两步验证二维码" })).toBeVisible();
  const shown = section.getByTestId("totp-secret");
  await expect(shown).toBeVisible();
  // What a person types from the text: the groups of four without their spaces.
  const secret = (await shown.innerText()).replace(/\s+/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  expect(fits(await layoutProblems(phone)), JSON.stringify(await layoutProblems(phone))).toBe(true);
  await phone.screenshot({ path: `${SHOTS}/two-factor-setup-phone.png`, fullPage: true });

  const enabledAt = Date.now();
  const code = TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: enabledAt });
  await section.getByLabel("验证器上的 6 位数字").fill(code);
  await section.getByRole("button", { name: "确认开启" }).click();
  const list = section.getByTestId("recovery-codes");
  await expect(list.getByRole("listitem")).toHaveCount(10);
  const recoveryCodes = await list.getByRole("listitem").allInnerTexts();
  for (const c of recoveryCodes) expect(c.trim()).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  expect(fits(await layoutProblems(phone)), JSON.stringify(await layoutProblems(phone))).toBe(true);
  await phone.screenshot({ path: `${SHOTS}/two-factor-recovery-codes-phone.png`, fullPage: true });
  await section.getByRole("button", { name: "我已保存恢复码" }).click();
  await expect(section.getByText("剩余 10 个")).toBeVisible();
  await expect(section.getByText(/^已开启/)).toBeVisible();

  // On a computer: the scan-code login confirmed on the phone, then the second step with a recovery code.
  const computer = await browser.newContext();
  const desk = await computer.newPage();
  desk.on("console", (m) => {
    // The console's first try of the guarded change is refused (403) on purpose.
    if (m.type() === "error" && !m.text().includes("status of 403")) consoleErrors.push(m.text());
  });
  await desk.goto("/");
  await waitForHydration(desk);
  const ticket = desk.waitForResponse(
    (r) => new URL(r.url()).pathname === "/api/auth/qr" && r.request().method() === "POST",
  );
  const dialog = await openLoginDialog(desk);
  await dialog.getByRole("tab", { name: "扫码" }).click();
  const { confirmUrl } = (await (await ticket).json()) as { confirmUrl: string };
  await phone.goto(new URL(confirmUrl).pathname);
  await waitForHydration(phone);
  await phone.getByRole("button", { name: "确认登录" }).click();
  const second = desk.getByRole("dialog", { name: "两步验证" });
  await expect(second.getByLabel("两步验证码")).toBeFocused();
  await desk.screenshot({ path: `${SHOTS}/two-factor-login.png` });
  await second.getByRole("button", { name: "手机不在身边？使用恢复码" }).click();
  await second.getByLabel("恢复码").fill(recoveryCodes[0]!.trim());
  await second.getByRole("button", { name: "验证并登录" }).click();
  await loadedAgain(desk);

  // A role change in the console: signed in with a recovery code, so the console asks first.
  await desk.goto(`/admin/users/${someone.id}`);
  await waitForHydration(desk);
  await desk.getByRole("button", { name: "设为老师" }).click();
  const prompt = desk.getByRole("dialog", { name: "验证身份" });
  await expect(prompt).toBeVisible();
  await expect(prompt.getByLabel("两步验证码")).toBeVisible();
  await desk.screenshot({ path: `${SHOTS}/two-factor-step-up.png` });
  // The code of the step used to turn it on is spent: wait for the app's next one.
  const nextStep = (Math.floor(enabledAt / PERIOD_MS) + 1) * PERIOD_MS;
  if (Date.now() < nextStep) await desk.waitForTimeout(nextStep - Date.now() + 300);
  await prompt.getByLabel("两步验证码").fill(TOTP.generate({ secret: Secret.fromBase32(secret) }));
  await prompt.getByRole("button", { name: "验证并继续" }).click();
  await expect(prompt).toBeHidden();
  // The refused change went again by itself.
  await expect(desk.getByRole("status").filter({ hasText: "已设为老师" })).toBeVisible();
  await expect(desk.getByRole("button", { name: "撤销老师角色" })).toBeVisible();

  // Within the 10 minutes the next guarded change asks for nothing.
  await desk.getByRole("button", { name: "撤销老师角色" }).click();
  await expect(desk.getByRole("status").filter({ hasText: "已撤销老师角色" })).toBeVisible();
  await expect(prompt).toBeHidden();

  await Promise.all([someone.context.close(), newcomer.context.close(), computer.close()]);
  expect(consoleErrors).toEqual([]);
});
