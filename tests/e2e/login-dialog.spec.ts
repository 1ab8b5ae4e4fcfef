/**
 * The login dialog end to end: phone login, e-mail registration and password login, retrieve
 * account, complete info, the guard's redirect round trip and logging out. Codes are read from
 * the development outbox (/dev/outbox); every test uses its own phone number or address.
 */
import sharp from "sharp";
import { expect, test, waitForHydration } from "./fixtures";
import {
  SHOTS,
  freshEmail as freshAddress,
  freshPhone as freshNumber,
  loadedAgain,
  openLoginDialog,
  phoneLogin,
  readCode,
  serial,
  unexpected,
  userMenu,
} from "./login-helpers";

const freshPhone = () => freshNumber("15");
const freshEmail = () => freshAddress("learner");

test.describe("login dialog", () => {
  test("phone login with the code from the outbox; the header then shows the nickname", async ({
    page,
    consoleErrors,
  }) => {
    const phone = freshPhone();
    await page.goto("/");
    await waitForHydration(page);
    const dialog = await openLoginDialog(page);
    await expect(dialog.getByRole("tab", { name: "手机验证码" })).toHaveAttribute("aria-selected", "true");
    await expect(dialog.getByLabel("手机号")).toBeFocused();
    await page.screenshot({ path: `${SHOTS}/login-phone.png` });

    // Checked before anything is sent, in Chinese.
    await dialog.getByLabel("手机号").fill("12345");
    await dialog.getByRole("button", { name: "获取验证码" }).click();
    await expect(dialog.getByText("请输入正确的手机号")).toBeVisible();
    await expect(dialog.getByLabel("手机号")).toBeFocused();
    await dialog.getByRole("button", { name: "登录 / 注册" }).click();
    await expect(dialog.getByText("验证码是 6 位数字")).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/login-phone-errors.png` });

    // A wrong code is the server's error, shown as it says it.
    await dialog.getByLabel("手机号").fill(phone);
    await dialog.getByRole("button", { name: "获取验证码" }).click();
    const code = await readCode(page, phone, "login");
    const wrong = code === "000000" ? "111111" : "000000";
    await dialog.getByLabel("验证码", { exact: true }).fill(wrong);
    await dialog.getByRole("button", { name: "登录 / 注册" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("验证码错误或已过期");
    await expect(dialog.getByRole("button", { name: /^\d+ 秒后重发$/ })).toBeDisabled();
    await page.screenshot({ path: `${SHOTS}/login-phone-sent.png` });

    await dialog.getByLabel("验证码", { exact: true }).fill(code);
    await dialog.getByRole("button", { name: "登录 / 注册" }).click();
    // A new account goes on to complete info; skipping it finishes the login.
    const info = page.getByRole("dialog", { name: "完善资料" });
    await expect(info).toBeVisible();
    // Behind the dialog the header no longer offers 登录 / 注册.
    await expect(page.getByRole("banner").getByRole("button", { name: "登录 / 注册" })).toHaveCount(0);
    await expect(page.getByRole("banner")).toContainText("已登录");
    await info.getByRole("button", { name: "跳过" }).click();
    await loadedAgain(page);
    await expect(userMenu(page)).toHaveText(`墨友${phone.slice(-4)}`);
    await expect(page.getByRole("banner").getByRole("button", { name: "登录 / 注册" })).toHaveCount(0);
    expect(unexpected(consoleErrors, 400)).toEqual([]);
  });

  test("the tabs work by keyboard and the panels are drawn", async ({ page, consoleErrors }) => {
    await page.goto("/");
    await waitForHydration(page);
    const dialog = await openLoginDialog(page);
    await dialog.getByRole("tab", { name: "手机验证码" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(dialog.getByRole("tab", { name: "邮箱" })).toBeFocused();
    await expect(dialog.getByRole("tab", { name: "邮箱" })).toHaveAttribute("aria-selected", "true");
    await expect(dialog.getByLabel("密码", { exact: true })).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/login-email.png` });
    await dialog.getByRole("button", { name: "改用邮箱验证码登录" }).click();
    await expect(dialog.getByLabel("验证码", { exact: true })).toBeFocused();
    await page.screenshot({ path: `${SHOTS}/login-email-code.png` });

    await dialog.getByRole("tab", { name: "邮箱" }).focus();
    await page.keyboard.press("End");
    await expect(dialog.getByRole("tab", { name: "扫码" })).toBeFocused();
    await expect(dialog.getByRole("img", { name: "扫码登录二维码" })).toBeVisible();
    await expect(dialog.getByRole("status")).toHaveText("请使用已登录的手机扫描二维码");
    await page.screenshot({ path: `${SHOTS}/login-qr.png` });

    await dialog.getByRole("button", { name: "邮箱注册" }).click();
    const register = page.getByRole("dialog", { name: "邮箱注册" });
    await expect(register.getByRole("textbox", { name: "邮箱", exact: true })).toBeFocused();
    await page.screenshot({ path: `${SHOTS}/login-register.png` });
    await register.getByRole("button", { name: "‹ 返回登录" }).click();
    await dialog.getByRole("button", { name: "忘记密码" }).click();
    const retrieve = page.getByRole("dialog", { name: "找回账号" });
    await expect(retrieve.getByLabel("绑定的手机号")).toBeFocused();
    // Phone login needs no password: the phone way says what it is for.
    await expect(retrieve).toContainText("手机号登录只需短信验证码，不用密码");
    await page.screenshot({ path: `${SHOTS}/login-retrieve.png` });

    // Esc closes; the button that opened the dialog has focus again.
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByRole("banner").getByRole("button", { name: "登录 / 注册" })).toBeFocused();
    expect(consoleErrors).toEqual([]);
  });

  test("e-mail registration, then logging in with the password", async ({ page, consoleErrors }) => {
    const email = freshEmail();
    const password = "moChi2026ink";
    const nickname = `临池${serial}`;
    await page.goto("/about");
    await waitForHydration(page);
    let dialog = await openLoginDialog(page);
    await dialog.getByRole("button", { name: "邮箱注册" }).click();
    const register = page.getByRole("dialog", { name: "邮箱注册" });
    await register.getByRole("textbox", { name: "邮箱", exact: true }).fill(email);
    await register.getByRole("button", { name: "获取验证码" }).click();
    await register.getByLabel("邮箱验证码").fill(await readCode(page, email, "register"));
    // The shared password rules are checked here first.
    await register.getByLabel("设置密码").fill("onlyletters");
    await register.getByLabel("昵称").fill(nickname);
    await register.getByRole("button", { name: "注册并登录" }).click();
    await expect(register.getByText(/密码需.*数字/)).toBeVisible();
    await expect(register.getByLabel("设置密码")).toBeFocused();
    await register.getByLabel("设置密码").fill(password);
    await register.getByRole("button", { name: "注册并登录" }).click();
    const info = page.getByRole("dialog", { name: "完善资料" });
    await expect(info.getByLabel("昵称")).toHaveValue(nickname);
    await info.getByRole("button", { name: "跳过" }).click();
    await loadedAgain(page);
    // Stayed on the page it started from.
    expect(new URL(page.url()).pathname).toBe("/about");
    await expect(userMenu(page)).toHaveText(nickname);

    await page.evaluate(() => fetch("/api/auth/logout", { method: "POST" }));
    await page.reload();
    await waitForHydration(page);
    dialog = await openLoginDialog(page);
    await dialog.getByRole("tab", { name: "邮箱" }).click();
    await dialog.getByRole("textbox", { name: "邮箱", exact: true }).fill(email.toUpperCase());
    await dialog.getByLabel("密码", { exact: true }).fill("wrong-password-1");
    await dialog.getByRole("button", { name: "登录", exact: true }).click();
    await expect(dialog.getByRole("alert")).toHaveText("邮箱或密码错误");
    await dialog.getByLabel("密码", { exact: true }).fill(password);
    await dialog.getByRole("button", { name: "登录", exact: true }).click();
    await loadedAgain(page);
    await expect(userMenu(page)).toHaveText(nickname);
    expect(unexpected(consoleErrors, 400)).toEqual([]);
  });

  test("retrieve account by e-mail, then log in with the new password", async ({ page, consoleErrors }) => {
    // The address's 60-second code cooldown is waited out once.
    test.setTimeout(150_000);
    const email = freshEmail();
    const nickname = `寻墨${serial}`;
    await page.goto("/");
    await waitForHydration(page);
    // An account to retrieve, made through the same API the dialog uses.
    const post = (path: string, body: unknown) =>
      page.evaluate(
        async ([p, b]) => {
          const res = await fetch(p as string, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: JSON.stringify(b),
          });
          return res.status;
        },
        [path, body],
      );
    expect(await post("/api/auth/email/send", { email, purpose: "register" })).toBe(200);
    const code = await readCode(page, email, "register");
    expect(await post("/api/auth/email/register", { email, code, password: "oldPass2025", nickname })).toBe(201);
    expect(await post("/api/auth/logout", {})).toBe(200);
    await page.reload();
    await waitForHydration(page);

    const dialog = await openLoginDialog(page);
    await dialog.getByRole("button", { name: "忘记密码" }).click();
    const retrieve = page.getByRole("dialog", { name: "找回账号" });
    await retrieve.getByText("邮箱找回").click();
    await retrieve.getByLabel("绑定的邮箱").fill(email);
    // The register code's cooldown is still running for this address: the 429 says how long.
    await retrieve.getByRole("button", { name: "获取验证码" }).click();
    await expect(retrieve.getByRole("alert")).toHaveText(/请 \d+ 秒后再获取验证码/);
    await expect(retrieve.getByRole("button", { name: /^\d+ 秒后重发$/ })).toBeDisabled();
    await page.screenshot({ path: `${SHOTS}/login-retrieve-cooldown.png` });
    await expect(retrieve.getByRole("button", { name: "获取验证码" })).toBeEnabled({ timeout: 70_000 });
    await retrieve.getByRole("button", { name: "获取验证码" }).click();
    await retrieve.getByLabel("验证码", { exact: true }).fill(await readCode(page, email, "reset"));
    await retrieve.getByLabel("新密码").fill("newPass2026");
    await retrieve.getByRole("button", { name: "重置密码" }).click();

    // Back on the e-mail tab with the address filled in.
    await expect(dialog.getByRole("status")).toHaveText("密码已重置，请用新密码登录。");
    await expect(dialog.getByRole("textbox", { name: "邮箱", exact: true })).toHaveValue(email);
    await dialog.getByLabel("密码", { exact: true }).fill("oldPass2025");
    await dialog.getByRole("button", { name: "登录", exact: true }).click();
    await expect(dialog.getByRole("alert")).toHaveText("邮箱或密码错误");
    await dialog.getByLabel("密码", { exact: true }).fill("newPass2026");
    await dialog.getByRole("button", { name: "登录", exact: true }).click();
    await page.getByRole("dialog", { name: "完善资料" }).getByRole("button", { name: "跳过" }).click();
    await loadedAgain(page);
    await expect(userMenu(page)).toHaveText(nickname);
    expect(unexpected(consoleErrors, 400, 429)).toEqual([]);
  });

  test("complete info after the first login: nickname, avatar, gender and region", async ({ page, consoleErrors }) => {
    const phone = freshPhone();
    const nickname = `墨韵${phone.slice(-3)}`;
    await page.goto("/");
    await waitForHydration(page);
    await phoneLogin(page, await openLoginDialog(page), phone);
    const info = page.getByRole("dialog", { name: "完善资料" });
    await expect(info.getByLabel("昵称")).toBeFocused();
    await expect(info.getByLabel("昵称")).toHaveValue(`墨友${phone.slice(-4)}`);
    await page.screenshot({ path: `${SHOTS}/login-complete-info.png` });

    await info.getByLabel("昵称").fill("");
    await info.getByRole("button", { name: "保存" }).click();
    await expect(info.getByText("请输入昵称")).toBeVisible();

    const png = await sharp({ create: { width: 96, height: 96, channels: 3, background: "#b22c1a" } })
      .png()
      .toBuffer();
    await info.locator('input[type="file"]').setInputFiles({ name: "seal.png", mimeType: "image/png", buffer: png });
    await expect(info.locator(".login-avatar__picture img")).toHaveAttribute("src", /^\/avatar\//);
    await expect(info.getByText("更换头像")).toBeVisible();
    await info.getByLabel("昵称").fill(nickname);
    await info.getByText("女", { exact: true }).click();
    await info.getByLabel("地区").selectOption("浙江");
    await page.screenshot({ path: `${SHOTS}/login-complete-info-filled.png` });
    await info.getByRole("button", { name: "保存" }).click();
    await loadedAgain(page);
    await expect(userMenu(page)).toHaveText(nickname);
    // The new avatar is in the header, served from /avatar.
    const avatar = page.getByRole("banner").locator("img.user-menu__avatar");
    await expect(avatar).toHaveAttribute("src", /^\/avatar\/[0-9a-f]{32}\.webp$/);
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(256);
    expect(consoleErrors).toEqual([]);
  });

  test("the guard's redirect round trip lands on the page asked for", async ({ page, consoleErrors }) => {
    const phone = freshPhone();
    const res = await page.goto("/my/order");
    expect(res?.request().redirectedFrom()?.url()).toMatch(/\/my\/order$/);
    expect(page.url()).toMatch(/\/\?login=1&redirect=%2Fmy%2Forder$/);
    await waitForHydration(page);
    const dialog = page.getByRole("dialog", { name: "登录墨池课堂" });
    await expect(dialog).toBeVisible();
    await phoneLogin(page, dialog, phone);
    await page.getByRole("dialog", { name: "完善资料" }).getByRole("button", { name: "跳过" }).click();
    await page.waitForURL((url) => url.pathname === "/my/order");
    await waitForHydration(page);
    await expect(userMenu(page)).toHaveText(`墨友${phone.slice(-4)}`);
    expect(consoleErrors).toEqual([]);
  });

  test("a redirect to another site is ignored: the login stays on this site", async ({ page, consoleErrors }) => {
    const phone = freshPhone();
    await page.goto("/about?login=1&redirect=%2F%2Fevil.example%2Fx");
    await waitForHydration(page);
    await phoneLogin(page, page.getByRole("dialog", { name: "登录墨池课堂" }), phone);
    await page.getByRole("dialog", { name: "完善资料" }).getByRole("button", { name: "跳过" }).click();
    await page.waitForURL((url) => url.pathname === "/about" && url.search === "");
    await waitForHydration(page);
    await expect(userMenu(page)).toHaveText(`墨友${phone.slice(-4)}`);
    expect(consoleErrors).toEqual([]);
  });

  test("退出 in the user menu logs out at once", async ({ page, consoleErrors }) => {
    const phone = freshPhone();
    await page.goto("/");
    await waitForHydration(page);
    await phoneLogin(page, await openLoginDialog(page), phone);
    await page.getByRole("dialog", { name: "完善资料" }).getByRole("button", { name: "跳过" }).click();
    await loadedAgain(page);
    await page.goto("/about");
    await waitForHydration(page);
    await userMenu(page).click();
    await page.getByRole("banner").getByRole("link", { name: "退出" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await waitForHydration(page);
    await expect(page.getByRole("banner").getByRole("button", { name: "登录 / 注册" })).toBeVisible();
    const me = await page.evaluate(() => fetch("/api/auth/me").then((r) => r.json()));
    expect(me).toEqual({ viewer: null });
    expect(consoleErrors).toEqual([]);
  });

  test("/my/logout asks first: opening it logs nobody out, 确认退出 does", async ({ page, consoleErrors }) => {
    const phone = freshPhone();
    await page.goto("/");
    await waitForHydration(page);
    await phoneLogin(page, await openLoginDialog(page), phone);
    await page.getByRole("dialog", { name: "完善资料" }).getByRole("button", { name: "跳过" }).click();
    // The signed-in header comes with the reloaded document: only then is the reload over.
    await expect(userMenu(page)).toHaveText(`墨友${phone.slice(-4)}`);
    await waitForHydration(page);

    // As if from a link on another site: the page only asks.
    await page.goto("/my/logout");
    await waitForHydration(page);
    await expect(page.getByText(`当前账号：墨友${phone.slice(-4)}`)).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/logout-page.png` });
    await page.getByRole("button", { name: "取消" }).click();
    await page.waitForURL((url) => url.pathname === "/my");
    await waitForHydration(page);
    await expect(userMenu(page)).toHaveText(`墨友${phone.slice(-4)}`);

    await page.goto("/my/logout");
    await waitForHydration(page);
    await page.getByRole("button", { name: "确认退出" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await waitForHydration(page);
    await expect(page.getByRole("banner").getByRole("button", { name: "登录 / 注册" })).toBeVisible();
    await page.goto("/my/logout");
    await expect(page.getByText("你当前没有登录")).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });
});

test.describe("messenger binding panel", () => {
  test("?login=1&panel=bind opens it; without a WeChat authorisation it offers to scan again", async ({
    page,
    consoleErrors,
  }) => {
    await page.goto("/?login=1&panel=bind");
    await waitForHydration(page);
    const dialog = page.getByRole("dialog", { name: "绑定手机号" });
    await expect(dialog.getByRole("alert")).toHaveText("微信授权已过期或不存在，请重新扫码登录。");
    await dialog.getByRole("button", { name: "重新扫码" }).click();
    const login = page.getByRole("dialog", { name: "登录墨池课堂" });
    await expect(login.getByRole("tab", { name: "扫码" })).toHaveAttribute("aria-selected", "true");
    expect(consoleErrors).toEqual([]);
  });

  test("with an authorisation waiting, it asks for the phone number", async ({ page, consoleErrors }) => {
    // WeChat is not configured in tests: only the "is one waiting" answer is stood in for.
    await page.route("**/api/auth/wechat/pending", (route) =>
      route.fulfill({
        json: { pending: true, nickname: "竹影", expiresAt: new Date(Date.now() + 600_000).toISOString() },
      }),
    );
    await page.goto("/?login=1&panel=bind");
    await waitForHydration(page);
    const dialog = page.getByRole("dialog", { name: "绑定手机号" });
    await expect(dialog.getByText("竹影")).toBeVisible();
    await expect(dialog.getByLabel("手机号")).toBeFocused();
    await page.screenshot({ path: `${SHOTS}/login-bind.png` });
    expect(consoleErrors).toEqual([]);
  });
});
