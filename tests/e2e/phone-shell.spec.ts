/**
 * The site's frame on a phone (issue 29, items 1, 2 and 7): the header's menu button and its
 * drawer, the login dialog as a full-screen sheet, the shell's own pages at 360 and 430 px, the
 * staff table kit as stacked cards, and the operators' console without sideways scrolling at
 * 1024 px.
 */
import type { Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";
import { signInDemo } from "./homework-helpers";
import { freshPhone, openLoginDialog, phoneLogin } from "./login-helpers";
import { ANDROID_UA, fits, layoutProblems } from "./phone-layout";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, userAgent: ANDROID_UA });

const menuButton = (page: Page) => page.getByRole("banner").getByRole("button", { name: "菜单" });
const drawer = (page: Page) => page.getByRole("dialog", { name: "菜单" });

/** Whether keyboard focus is inside the drawer. */
const focusInDrawer = (page: Page) =>
  page.evaluate(() => document.getElementById("site-drawer")!.contains(document.activeElement));

/** The page's phone problems at `width`, in words for a failure message. */
async function problemsAt(page: Page, path: string, width: number): Promise<string | null> {
  await page.setViewportSize({ width, height: 800 });
  await page.goto(path);
  await waitForHydration(page);
  const problems = await layoutProblems(page);
  return fits(problems) ? null : `${path} at ${width} px: ${JSON.stringify(problems)}`;
}

/** The login dialog at 360 × 740, opened from the drawer: on a phone the header keeps 登录 / 注册 there. */
async function loginSheetAt360(page: Page) {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/");
  await waitForHydration(page);
  return openLoginDialog(page);
}

/** `check(label)` adds the page's phone problems as it is now to `problems`, in words. */
function problemLog(page: Page) {
  const problems: string[] = [];
  const check = async (label: string) => {
    const found = await layoutProblems(page);
    if (!fits(found)) problems.push(`${label}: ${JSON.stringify(found)}`);
  };
  return { problems, check };
}

test.describe("the header on a phone", () => {
  test("the menu button opens a drawer with the navigation and 登录 / 注册; Escape, a link and the backdrop close it", async ({
    page,
    consoleErrors,
  }) => {
    await page.goto("/");
    await waitForHydration(page);
    const button = menuButton(page);
    // Logo, search and the menu button; the desktop navigation is in the drawer.
    await expect(page.getByRole("banner").getByRole("searchbox", { name: "搜索" })).toBeVisible();
    await expect(page.locator(".main-nav")).toBeHidden();
    const box = (await button.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(44);
    expect(box.height).toBeGreaterThanOrEqual(44);
    await expect(button).toHaveAttribute("aria-expanded", "false");
    // Its code comes with the first touch of the button: no drawer in the page before.
    await expect(page.locator("#site-drawer")).toHaveCount(0);
    await expect(drawer(page)).toBeHidden();

    await button.click();
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(button).toHaveAttribute("aria-controls", "site-drawer");
    const menu = drawer(page);
    await expect(menu.getByRole("navigation", { name: "主导航" }).getByRole("link", { name: "课程" })).toBeVisible();
    await expect(menu.getByRole("button", { name: "登录 / 注册" })).toBeVisible();
    // Focus stays inside while it is open.
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press("Tab");
      expect(await focusInDrawer(page), `focus after ${i + 1} Tab presses`).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(button).toBeFocused();
    // Closed, the drawer is invisible (not just moved aside): nothing in it takes focus.
    await expect(page.locator("#site-drawer")).toHaveCSS("visibility", "hidden");

    // A link in the drawer navigates and closes it.
    await button.click();
    await menu.getByRole("link", { name: "书籍" }).click();
    await expect(page).toHaveURL(/\/books$/);
    await expect(menu).toBeHidden();
    await expect(button).toHaveAttribute("aria-expanded", "false");

    // The backdrop beside the panel closes it.
    await button.click();
    await expect(menu).toBeVisible();
    await page.locator(".site-drawer__backdrop").click({ position: { x: 20, y: 400 } });
    await expect(menu).toBeHidden();

    // 登录 / 注册 in the drawer opens the login dialog (and the drawer gives way).
    await button.click();
    await menu.getByRole("button", { name: "登录 / 注册" }).click();
    await expect(page.getByRole("dialog", { name: "登录墨池课堂" })).toBeVisible();
    await expect(menu).toBeHidden();
    expect(consoleErrors).toEqual([]);
  });

  test("signed in, the drawer holds the learner's own pages and 退出; notices stay in the header", async ({
    page,
    consoleErrors,
  }) => {
    await signInDemo(page, "learner");
    await page.goto("/");
    await waitForHydration(page);
    await expect(page.getByRole("banner").locator(".notices-popover__summary")).toBeVisible();
    await menuButton(page).click();
    const menu = drawer(page);
    for (const name of ["个人中心", "我的课程", "我的订单", "我的作业", "练字日记", "退出"]) {
      await expect(menu.getByRole("link", { name })).toBeVisible();
    }
    await expect(menu.getByRole("button", { name: "登录 / 注册" })).toHaveCount(0);
    await menu.getByRole("link", { name: "我的订单" }).click();
    await expect(page).toHaveURL(/\/my\/order$/);
    await expect(menu).toBeHidden();
    expect(consoleErrors).toEqual([]);
  });
});

test("the login dialog is a full-screen sheet with its close button in reach; its panels fit 360 px", async ({
  page,
  consoleErrors,
}) => {
  const dialog = await loginSheetAt360(page);
  await expect(dialog).toBeVisible();
  await page.waitForFunction(() =>
    [...document.querySelectorAll(".modal")].every((m) => m.getAnimations().every((a) => a.playState !== "running")),
  );
  const sheet = (await dialog.boundingBox())!;
  expect(sheet).toEqual({ x: 0, y: 0, width: 360, height: 740 });
  const close = (await dialog.getByRole("button", { name: "关闭" }).boundingBox())!;
  expect(close.width).toBeGreaterThanOrEqual(44);
  expect(close.height).toBeGreaterThanOrEqual(44);
  expect(close.x).toBeGreaterThanOrEqual(0);
  expect(close.x + close.width).toBeLessThanOrEqual(360);
  expect(close.y).toBeGreaterThanOrEqual(0);
  expect(close.y + close.height).toBeLessThanOrEqual(80);

  const { problems, check } = problemLog(page);
  for (const tab of ["手机验证码", "邮箱", "扫码"]) {
    await dialog.getByRole("tab", { name: tab }).click();
    await check(tab);
  }
  expect(problems, problems.join("\n")).toEqual([]);
  await dialog.getByRole("button", { name: "关闭" }).click();
  await expect(dialog).toBeHidden();
  expect(consoleErrors).toEqual([]);
});

test("at 360 px the login panels behind the first fit too: 找回账号, 邮箱注册 and 完善资料", async ({
  page,
  consoleErrors,
}) => {
  const dialog = await loginSheetAt360(page);
  const { problems, check } = problemLog(page);
  const panels: [button: string, panel: string][] = [
    ["忘记密码", "找回账号"],
    ["邮箱注册", "邮箱注册"],
  ];
  for (const [button, panel] of panels) {
    await dialog.getByRole("button", { name: button }).click();
    await expect(page.getByRole("dialog", { name: panel })).toBeVisible();
    await check(panel);
    await page
      .getByRole("dialog")
      .getByRole("button", { name: /返回登录/ })
      .click();
  }
  await phoneLogin(page, dialog, freshPhone("16"));
  await expect(page.getByRole("dialog", { name: "完善资料" })).toBeVisible();
  await check("完善资料");
  expect(problems, problems.join("\n")).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test("the shell's own pages fit 360 and 430 px", async ({ page, consoleErrors }) => {
  const problems: string[] = [];
  for (const width of [360, 430]) {
    for (const path of [
      "/",
      "/about",
      "/guide",
      "/protocol/service",
      "/search?keyword=楷书",
      "/search?q=楷书",
      "/agreement",
      "/bowser",
    ]) {
      const found = await problemsAt(page, path, width);
      if (found) problems.push(found);
    }
  }
  expect(problems, problems.join("\n")).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test("the personal centre fits 360 and 430 px, its side menu a strip that scrolls sideways", async ({
  page,
  consoleErrors,
}) => {
  await signInDemo(page, "learner");
  const problems: string[] = [];
  for (const width of [360, 430]) {
    const found = await problemsAt(page, "/my", width);
    if (found) problems.push(found);
  }
  expect(problems, problems.join("\n")).toEqual([]);
  const strip = page.getByRole("navigation", { name: "个人中心菜单" });
  await expect(strip).toHaveCSS("overflow-x", "auto");
  const links = strip.getByRole("link");
  const first = (await links.first().boundingBox())!;
  const second = (await links.nth(1).boundingBox())!;
  // One row: the second tab beside the first, not under it.
  expect(Math.abs(second.y - first.y)).toBeLessThan(2);
  expect(second.x).toBeGreaterThan(first.x);
  // Above the content, not over it.
  const stripBox = (await strip.boundingBox())!;
  const heading = (await page.locator(".side-layout__content h1").first().boundingBox())!;
  expect(stripBox.y + stripBox.height).toBeLessThanOrEqual(heading.y);
  expect(consoleErrors).toEqual([]);
});

test("a staff table (the kit) shows its rows as cards on a phone, each value with its column's label", async ({
  page,
  consoleErrors,
}) => {
  await signInDemo(page, "operator");
  await page.goto("/admin/users");
  await waitForHydration(page);
  const rows = page.locator(".data-table__table tbody tr");
  await expect(rows.first()).toBeVisible();
  const first = (await rows.nth(0).boundingBox())!;
  const second = (await rows.nth(1).boundingBox())!;
  expect(second.y).toBeGreaterThanOrEqual(first.y + first.height);
  expect(first.x + first.width).toBeLessThanOrEqual(390);
  const cell = rows.first().locator("td").nth(1);
  await expect(cell).toHaveAttribute("data-label", "昵称");
  expect(await cell.evaluate((td) => getComputedStyle(td, "::before").content)).toBe('"昵称"');
  const problems = await layoutProblems(page);
  expect(fits(problems), JSON.stringify(problems)).toBe(true);
  expect(consoleErrors).toEqual([]);
});

test.describe("the operators' console on a 1024 px desktop", () => {
  test.use({
    viewport: { width: 1024, height: 768 },
    isMobile: false,
    hasTouch: false,
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  });

  test("no section scrolls the page sideways", async ({ page, consoleErrors }) => {
    await signInDemo(page, "operator");
    const sections = ["/admin", "/admin/orders", "/admin/users", "/admin/courses", "/admin/books"];
    sections.push("/admin/stationery", "/admin/live", "/admin/coupons", "/admin/campaigns", "/admin/mall");
    sections.push("/admin/shipping", "/admin/moderation", "/admin/audit");
    const wide: string[] = [];
    for (const path of sections) {
      await page.goto(path);
      await waitForHydration(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) wide.push(`${path}: ${overflow} px too wide`);
    }
    expect(wide, wide.join("\n")).toEqual([]);
    // The desktop header: the navigation in the bar, no menu button.
    await expect(page.locator(".main-nav")).toBeVisible();
    await expect(page.getByRole("banner").getByRole("button", { name: "菜单" })).toBeHidden();
    expect(consoleErrors).toEqual([]);
  });
});
