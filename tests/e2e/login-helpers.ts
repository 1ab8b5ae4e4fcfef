/**
 * What the login browser tests share: fresh identities, codes read from /dev/outbox, the login
 * dialog, and waiting for the document a login reloads.
 */
import { type Locator, type Page, expect } from "@playwright/test";
import { waitForHydration } from "./fixtures";

export const SHOTS = "test-results/screenshots";
/** Counts identities made in this run (a live binding: importers see it grow). */
export let serial = 0;

/** A mainland mobile number nobody else in this run uses (`prefix`: "15", "17"…). */
export function freshPhone(prefix: string): string {
  serial += 1;
  return `${prefix}${String(Date.now() * 10 + serial).slice(-9)}`;
}

export function freshEmail(label: string): string {
  serial += 1;
  return `${label}-${Date.now().toString(36)}-${serial}@example.com`;
}

/**
 * Console errors apart from Chromium's own log line for an answer a test provoked on purpose
 * (a wrong code or password: 400; a code asked for too soon: 429).
 */
export function unexpected(errors: string[], ...statuses: number[]): string[] {
  return errors.filter(
    (e) =>
      !statuses.some(
        (s) =>
          e ===
          `Failed to load resource: the server responded with a status of ${s} (${s === 400 ? "Bad Request" : "Too Many Requests"})`,
      ),
  );
}

/** The newest code the outbox holds for `to` and `purpose` (messages leave in the background). */
export async function readCode(page: Page, to: string, purpose: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/dev/outbox?to=${encodeURIComponent(to)}`);
        const html = await res.text();
        const row = html.match(new RegExp(`<tr [^>]*data-purpose="${purpose}"[^>]*>([\\s\\S]*?)</tr>`));
        code = row?.[1]?.match(/验证码\s*(\d{6})/)?.[1];
        return code;
      },
      { message: `a ${purpose} code for ${to} in /dev/outbox`, timeout: 10_000 },
    )
    .toBeTruthy();
  return code as string;
}

/** Opens the login dialog from the header, or on a phone or tablet from the header's drawer. */
export async function openLoginDialog(page: Page): Promise<Locator> {
  const inHeader = page.getByRole("banner").getByRole("button", { name: "登录 / 注册" });
  if (await inHeader.isVisible()) await inHeader.click();
  else {
    await page.getByRole("banner").getByRole("button", { name: "菜单" }).click();
    await page.getByRole("dialog", { name: "菜单" }).getByRole("button", { name: "登录 / 注册" }).click();
  }
  const dialog = page.getByRole("dialog", { name: "登录墨池课堂" });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Phone + SMS code in the open dialog, up to the answer (complete info for a new account). */
export async function phoneLogin(page: Page, dialog: Locator, phone: string) {
  await dialog.getByLabel("手机号").fill(phone);
  await dialog.getByRole("button", { name: "获取验证码" }).click();
  await expect(dialog.getByRole("button", { name: /^\d+ 秒后重发$/ })).toBeDisabled();
  await expect(dialog.getByLabel("验证码", { exact: true })).toBeFocused();
  await dialog.getByLabel("验证码", { exact: true }).fill(await readCode(page, phone, "login"));
  await dialog.getByRole("button", { name: "登录 / 注册" }).click();
}

export const userMenu = (page: Page) => page.getByRole("banner").locator(".user-menu__summary");

/**
 * After a login the dialog reloads the document. The user menu is only in the server-rendered
 * signed-in document, so finding it means the reload is over (waiting for "load" could still
 * see the old page). On a phone it is in the page but hidden (the drawer offers its links).
 */
export async function loadedAgain(page: Page) {
  await expect(userMenu(page)).toBeAttached();
  await waitForHydration(page);
}

/** 完善资料 after a new account's first login, skipped; then the reloaded page. */
export async function skipCompleteInfo(page: Page) {
  await page.getByRole("dialog", { name: "完善资料" }).getByRole("button", { name: "跳过" }).click();
  await loadedAgain(page);
}

/** A new learner (a fresh phone starting with `prefix`) signed in from the home page's header. */
export async function signInNewLearner(page: Page, prefix: string) {
  await page.goto("/");
  await waitForHydration(page);
  await phoneLogin(page, await openLoginDialog(page), freshPhone(prefix));
  await skipCompleteInfo(page);
}

/** A new learner signed in through `/?login=1&redirect=…`, 完善资料 skipped, and back on `redirect`. */
export async function newLearnerAt(page: Page, redirect: string, prefix: string) {
  await page.goto(`/?login=1&redirect=${encodeURIComponent(redirect)}`);
  await waitForHydration(page);
  await phoneLogin(page, page.getByRole("dialog", { name: "登录墨池课堂" }), freshPhone(prefix));
  await page.getByRole("dialog", { name: "完善资料" }).getByRole("button", { name: "跳过" }).click();
  await page.waitForURL((url) => url.pathname === redirect.split("?")[0]);
  await waitForHydration(page);
}
