/**
 * Accessibility: axe-core finds nothing on any page type, signed out and signed in, nor in the
 * main dialogs. Adding a page is adding its address to one of the lists below.
 *
 * One rule is off: `meta-viewport`. The spec fixes the viewport (`user-scalable=no`), so the
 * pages are laid out to read on a phone without zooming (decision 069); everything else is
 * checked at every impact.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { adminNav } from "../../client/features/admin/admin-nav";
import { signInDemo } from "./homework-helpers";
import { expect, test, waitForHydration } from "./fixtures";
import { freshPhone, openLoginDialog, phoneLogin, skipCompleteInfo } from "./login-helpers";

/** Public pages with fixed addresses. */
const PUBLIC_PAGES = [
  "/",
  "/index.html",
  "/about",
  "/about-maobi",
  "/agreement",
  "/deletion-agreement",
  "/books",
  "/books/tabs",
  "/bowser",
  "/calmness",
  "/experience",
  "/guide",
  "/guide/live",
  "/homework",
  "/live",
  "/playback",
  "/search",
  "/search?q=楷书",
  "/stationery",
  "/video",
  "/video/PublicCourseItem",
  "/product/list",
  "/product/list?category=kaishu&page=2",
  "/show/activity",
  "/activitys/bmyx",
  "/activitys/daycourse",
  "/activitys/reading",
  "/activitys/travel_note",
  "/protocol",
  "/protocol/contact",
  "/protocol/feedback",
  "/protocol/privacy",
  "/protocol/service",
  "/no-such-page",
  "/course/999999",
];

/** Detail pages: the first address of each pattern in the sitemap. */
const DETAIL_PATTERNS = [
  /\/course\/\d+$/,
  /\/books\/\d+$/,
  /\/commodity\/\d+$/,
  /\/live\/\d+$/,
  /\/video\/\d+$/,
  /\/video\/PublicCourseItem\?id=\d+$/,
  /\/playback\?id=\d+$/,
  /\/activitys\/[\w-]+$/,
];

/** Pages of a signed-in learner (the demo learner). */
const LEARNER_PAGES = [
  "/my",
  "/my/activities",
  "/my/allcourse",
  "/my/calendar",
  "/my/dairy",
  "/my/exchange",
  "/my/exchange/record",
  "/my/exchange/record/coin",
  "/my/exchange/record/bishan",
  "/my/homework",
  "/my/information",
  "/my/order",
  "/my/packs",
  "/my/security",
];

/** Pages of a signed-in teacher (the demo teacher). */
const TEACHER_PAGES = ["/teach", "/teach/homework", "/teach/courses", "/teach/live"];

/** Pages of the demo operator: the console's sections, from its own navigation, and the new-item forms. */
const OPERATOR_PAGES = [
  ...adminNav.map((item) => item.to),
  "/admin/courses/new",
  "/admin/books/new",
  "/admin/stationery/new",
  "/admin/live/new",
];

/**
 * Detail pages behind a signed-in list: the first link of the list page that matches. Each pattern
 * must find one (the demo data has them).
 */
const TEACHER_DETAILS: Array<[string, RegExp]> = [
  ["/teach/courses", /^\/teach\/courses\/\d+$/],
  ["/teach/live", /^\/teach\/live\/\d+$/],
];
const OPERATOR_DETAILS: Array<[string, RegExp]> = [
  ["/admin/users", /^\/admin\/users\/\d+$/],
  ["/admin/courses", /^\/admin\/courses\/\d+$/],
  ["/admin/books", /^\/admin\/books\/\d+$/],
  ["/admin/stationery", /^\/admin\/stationery\/\d+$/],
  ["/admin/live", /^\/admin\/live\/\d+$/],
];
const LEARNER_DETAILS: Array<[string, RegExp]> = [["/my/exchange", /^\/my\/exchange\/detail\?id=\d+$/]];

/** The first link on `list` whose address (path and query) matches `pattern`. */
async function firstLink(page: Page, list: string, pattern: RegExp): Promise<string> {
  await page.goto(list);
  await waitForHydration(page);
  const hrefs = await page.locator("a[href]").evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
  const found = hrefs.find((h) => pattern.test(h));
  expect(found, `${list}: a link like ${String(pattern)}`).toBeTruthy();
  return found!;
}

async function detailPages(page: Page, details: Array<[string, RegExp]>): Promise<string[]> {
  const urls: string[] = [];
  for (const [list, pattern] of details) urls.push(await firstLink(page, list, pattern));
  return urls;
}

type Violation = { id: string; impact?: string | null; help: string; nodes: Array<{ target: unknown }> };

/** Runs axe on the page as it is now; a readable list of what it found (empty: nothing). */
async function axeFindings(page: Page, include?: string): Promise<string[]> {
  let builder = new AxeBuilder({ page }).disableRules(["meta-viewport"]);
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  return (violations as Violation[]).map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`,
  );
}

async function openSettled(page: Page, url: string) {
  await page.goto(url);
  await waitForHydration(page);
  // Fade-ins (0.4 s) settle before axe measures colours.
  await page.waitForTimeout(450);
}

async function checkPages(page: Page, urls: readonly string[]) {
  const findings: Record<string, string[]> = {};
  for (const url of urls) {
    await openSettled(page, url);
    const found = await axeFindings(page);
    if (found.length) findings[url] = found;
  }
  expect(findings).toEqual({});
}

test.describe.configure({ timeout: 480_000 });

test("public pages: no axe findings", async ({ page }) => {
  await checkPages(page, PUBLIC_PAGES);
});

test("detail pages of every kind: no axe findings", async ({ page, request }) => {
  const sitemap = await (await request.get("/sitemap.xml")).text();
  const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
  const urls = DETAIL_PATTERNS.map((pattern) => {
    const loc = locs.find((l) => pattern.test(l));
    expect(loc, String(pattern)).toBeTruthy();
    return new URL(loc!).pathname + new URL(loc!).search;
  });
  // A homework share page, from the wall (not in the sitemap's patterns above).
  urls.push(await firstLink(page, "/homework", /^\/homework\/share\?id=[\w-]+$/));
  await checkPages(page, urls);
});

test("a learner's pages: no axe findings", async ({ page }) => {
  await signInDemo(page, "learner");
  await checkPages(page, [...LEARNER_PAGES, ...(await detailPages(page, LEARNER_DETAILS))]);
});

test("a teacher's pages: no axe findings", async ({ page }) => {
  await signInDemo(page, "teacher");
  await checkPages(page, [...TEACHER_PAGES, ...(await detailPages(page, TEACHER_DETAILS))]);
});

test("the operators' console: no axe findings", async ({ page }) => {
  await signInDemo(page, "operator");
  await checkPages(page, [...OPERATOR_PAGES, ...(await detailPages(page, OPERATOR_DETAILS))]);
});

test("checkout: the address dialog and the payment page: no axe findings", async ({ page, baseURL }) => {
  const findings: Record<string, string[]> = {};
  const record = async (name: string) => {
    await page.waitForTimeout(450);
    const found = await axeFindings(page);
    if (found.length) findings[name] = found;
  };
  // A learner of their own (the order and address stay out of the demo learner's pages).
  await page.goto("/");
  await waitForHydration(page);
  await phoneLogin(page, await openLoginDialog(page), freshPhone("14"));
  await skipCompleteInfo(page);
  const origin = { Origin: baseURL! };
  const saved = await page.request.post("/api/orders/addresses", {
    headers: origin,
    data: {
      recipient: "王羲之",
      phone: "13812345678",
      region: "浙江省 绍兴市 越城区",
      detail: "兰亭路 1 号",
      isDefault: true,
    },
  });
  expect(saved.ok()).toBe(true);

  const books = (await (await page.request.get("/api/shop/books")).json()) as {
    items: Array<{ id: number; stock: number }>;
  };
  const inStock = books.items.find((b) => b.stock >= 2);
  expect(inStock, "a book in stock").toBeTruthy();
  await openSettled(page, `/books/${inStock!.id}`);
  await page.getByRole("button", { name: "立即购买" }).click();
  const dialog = page.getByRole("dialog", { name: "选择收货地址" });
  await expect(dialog.getByRole("radio", { name: /王羲之/ })).toBeChecked();
  await record("address dialog");
  await dialog.getByRole("button", { name: "提交订单" }).click();
  await page.waitForURL(/\/payment\?order=M\d{20}$/);
  await waitForHydration(page);
  const orderNo = new URL(page.url()).searchParams.get("order")!;
  await expect(page.getByText(`订单号 ${orderNo}`)).toBeVisible();
  await record("payment page");
  // The order goes back: the book's stock is as it was.
  const cancelled = await page.request.post(`/api/orders/${orderNo}/cancel`, {
    headers: { ...origin, "Idempotency-Key": crypto.randomUUID() },
  });
  expect(cancelled.ok()).toBe(true);
  // The same order on the operators' desk.
  await signInDemo(page, "operator");
  await openSettled(page, `/admin/orders/detail?no=${orderNo}`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await record("order detail (console)");
  expect(findings).toEqual({});
});

test("the main dialogs and pop-ups: no axe findings", async ({ page }) => {
  const findings: Record<string, string[]> = {};
  const record = async (name: string) => {
    await page.waitForTimeout(450);
    const found = await axeFindings(page);
    if (found.length) findings[name] = found;
  };

  await openSettled(page, "/about");
  await page.getByRole("banner").getByRole("button", { name: "登录 / 注册" }).click();
  await expect(page.getByRole("dialog", { name: "登录墨池课堂" })).toBeVisible();
  await record("login dialog");
  await page.keyboard.press("Escape");

  await page.getByRole("button", { name: "客服" }).click();
  await expect(page.getByRole("dialog", { name: "联系客服" })).toBeVisible();
  await record("customer-service dialog");
  await page.keyboard.press("Escape");

  await openSettled(page, "/course/1");
  const groupBuy = page.getByRole("button", { name: /拼团/ }).first();
  if (await groupBuy.isVisible()) {
    await groupBuy.click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await record("group-buy dialog");
    await page.keyboard.press("Escape");
  }

  await signInDemo(page, "learner");
  await openSettled(page, "/my");
  await page.getByRole("banner").locator(".notices-popover__summary").click();
  await expect(page.getByRole("banner").getByLabel("通知列表")).toBeVisible();
  await record("notices pop-up");
  await page.keyboard.press("Escape");

  await openSettled(page, "/course/1");
  const gift = page.getByRole("button", { name: /送给好友|赠送/ }).first();
  if (await gift.isVisible()) {
    await gift.click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await record("gift dialog");
  }
  expect(findings).toEqual({});
});

test("the skip link is the first Tab stop and takes focus to the page's content", async ({ page, consoleErrors }) => {
  for (const url of ["/product/list", "/agreement"]) {
    await openSettled(page, url);
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "跳到正文" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(page.locator("main#main")).toBeFocused();
  }
  expect(consoleErrors).toEqual([]);
});
