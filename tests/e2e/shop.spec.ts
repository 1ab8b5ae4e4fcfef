/**
 * Books, stationery, search, the trial-class sign-up and activities in a real browser, on the
 * demo catalogue the server seeds on its first start.
 */
import { TRIAL_DUPLICATE_MESSAGE } from "../../shared/contracts/activities";
import { expect, test, waitForHydration } from "./fixtures";
import { freshPhone, openLoginDialog, phoneLogin, skipCompleteInfo } from "./login-helpers";

/** Chromium's own log line for an answer the test provoked on purpose. */
const provoked = (errors: string[], status: number) =>
  errors.filter((e) => !e.startsWith(`Failed to load resource: the server responded with a status of ${status}`));

test("books: the front, a tab, then a book with its facts, stock and an honest buy button", async ({
  page,
  consoleErrors,
}) => {
  await page.goto("/books");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "新书上架" })).toBeVisible();

  await page.getByRole("list", { name: "书籍分类" }).getByRole("link", { name: /技法/ }).click();
  await expect(page).toHaveURL(/\/books\/tabs\?tab=%E6%8A%80%E6%B3%95$/);
  await expect(page.getByRole("heading", { level: 1, name: "技法" })).toBeVisible();
  await expect(page.getByText("共 5 本")).toBeVisible();
  const cards = page.locator("main .catalogue-card");
  await expect(cards).toHaveCount(5);

  // Cheapest first, in the address too.
  await page.getByRole("link", { name: "价格从低到高" }).click();
  await expect(page).toHaveURL(/sort=price_asc/);
  await expect(cards.first()).toContainText("¥32");

  await page.getByRole("link", { name: "毛笔书法入门教程" }).click();
  await expect(page).toHaveURL(/\/books\/12$/);
  await expect(page.getByRole("heading", { level: 1, name: "毛笔书法入门教程" })).toBeVisible();
  await expect(page.locator(".product__facts")).toContainText(/ISBN978-7-5479-\d{4}-\d/);
  await expect(page.getByTestId("stock-state")).toHaveText("有货");

  // The quantity stays within what one may order.
  const quantity = page.getByLabel("数量");
  await quantity.fill("500");
  await quantity.press("Enter");
  await expect(quantity).toHaveValue("99");
  await expect(page.getByRole("button", { name: "增加一件" })).toBeDisabled();
  await page.getByRole("button", { name: "减少一件" }).click();
  await expect(quantity).toHaveValue("98");

  // Ordering needs an account: a visitor is asked to sign in first, and nothing is ordered.
  await page.getByRole("button", { name: "立即购买" }).click();
  const dialog = page.getByRole("dialog", { name: "登录墨池课堂" });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/books\/\d+$/);
  expect(consoleErrors).toEqual([]);
});

test("an out-of-stock book cannot be bought", async ({ page, consoleErrors }) => {
  await page.goto("/books/30");
  await waitForHydration(page);
  await expect(page.getByTestId("stock-state")).toHaveText("暂时缺货");
  await expect(page.getByRole("button", { name: "暂时缺货" })).toBeDisabled();
  await expect(page.getByLabel("数量")).toBeDisabled();
  // The cover fills its frame: no pale strip beside a 300 px cover in the 320 px column.
  const frame = await page.locator(".product__cover").evaluate((el) => el.clientWidth);
  const cover = await page.locator(".product__cover img").evaluate((el) => el.getBoundingClientRect().width);
  expect(Math.abs(cover - frame)).toBeLessThan(1);
  expect(consoleErrors).toEqual([]);
});

test("stationery: filter, sort, open an item, choose a SKU; a sold-out SKU cannot be chosen", async ({
  page,
  consoleErrors,
}) => {
  // The demo catalogue has no sold-out SKU, so the item's answer marks one (大楷) as sold out.
  await page.route("**/api/shop/commodities/1", async (route) => {
    const response = await route.fetch();
    const item = await response.json();
    for (const sku of item.skus) if (sku.name === "大楷") sku.stock = 0;
    await route.fulfill({ response, json: item });
  });

  await page.goto("/stationery");
  await waitForHydration(page);
  await expect(page.getByText("共 40 件商品")).toBeVisible();

  await page.getByRole("navigation", { name: "文房分类" }).getByRole("link", { name: /毛笔/ }).click();
  await expect(page).toHaveURL(/category=%E6%AF%9B%E7%AC%94/);
  await expect(page.getByText("共 6 件商品")).toBeVisible();

  await page.getByLabel("只看有货").check();
  await expect(page).toHaveURL(/category=%E6%AF%9B%E7%AC%94&inStock=1/);
  await expect(page.getByText("共 6 件有货商品")).toBeVisible();
  await expect(page.getByLabel("只看有货")).toBeChecked();

  await page.getByRole("link", { name: "价格从低到高" }).click();
  await expect(page).toHaveURL(/sort=price_asc/);
  await expect(page.locator("main .catalogue-card").first()).toContainText("兼毫毛笔（七紫三羊）");

  await page.getByRole("link", { name: "兼毫毛笔（七紫三羊）" }).click();
  await expect(page).toHaveURL(/\/commodity\/1$/);
  const price = page.getByTestId("sku-price");
  const small = page.getByRole("button", { name: "小楷" });
  const medium = page.getByRole("button", { name: "中楷" });
  const large = page.getByRole("button", { name: /大楷/ });
  await expect(small).toHaveAttribute("aria-pressed", "true");
  await expect(price).toContainText("¥28");
  await expect(price).toContainText("库存 80 件");

  await medium.click();
  await expect(medium).toHaveAttribute("aria-pressed", "true");
  await expect(small).toHaveAttribute("aria-pressed", "false");
  await expect(price).toContainText("¥36");
  await expect(price).toContainText("库存 120 件");
  await expect(large).toBeDisabled();

  // Thumbnails switch the large picture.
  await page.getByRole("button", { name: "查看第 2 张图片" }).click();
  await expect(page.getByRole("img", { name: "兼毫毛笔（七紫三羊）图片 2" })).toBeVisible();

  await page.getByRole("button", { name: "立即购买" }).click();
  const dialog = page.getByRole("dialog", { name: "登录墨池课堂" });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  expect(consoleErrors).toEqual([]);
});

test("search finds a course by a two-character substring and highlights it", async ({ page, consoleErrors }) => {
  await page.goto("/search");
  await waitForHydration(page);
  await expect(page.getByRole("link", { name: "兰亭序" })).toBeVisible();

  const box = page.getByRole("main").getByLabel("搜索内容");
  await box.fill("兰亭");
  await box.press("Enter");
  await expect(page).toHaveURL(/\/search\?q=%E5%85%B0%E4%BA%AD$/);
  await expect(page.getByRole("navigation", { name: "搜索范围" })).toContainText("课程1");

  const course = page.locator("main .catalogue-card--course");
  await expect(course).toHaveCount(1);
  await expect(course.getByRole("heading")).toHaveText("兰亭序逐字精讲");
  await expect(course.locator("mark")).toHaveText("兰亭");
  await expect(page.locator("main .catalogue-card--book mark")).toHaveText("兰亭");

  await page.getByRole("navigation", { name: "搜索范围" }).getByRole("link", { name: /书籍/ }).click();
  await expect(page).toHaveURL(/type=book/);
  await expect(page.locator("main .catalogue-card--course")).toHaveCount(0);
  await expect(page.locator("main .catalogue-card--book")).toHaveCount(1);

  await page.getByRole("navigation", { name: "搜索范围" }).getByRole("link", { name: /全部/ }).click();
  await expect(course.getByRole("link").first()).toHaveAttribute("href", "/course/8");
  expect(consoleErrors).toEqual([]);
});

test("the trial class: a sign-up succeeds, the same one again is refused politely", async ({ page, consoleErrors }) => {
  const phone = freshPhone("15");
  await page.goto("/experience");
  await waitForHydration(page);
  const form = page.getByRole("form", { name: "免费报名" });

  // Checked before sending.
  await form.getByRole("button", { name: "免费报名" }).click();
  await expect(form.getByText("请填写您的称呼")).toBeVisible();
  await expect(form.getByLabel("称呼 *")).toBeFocused();

  await form.getByLabel("称呼 *").fill("王同学");
  await form.getByLabel("手机号 *").fill(phone);
  await form.getByText("楷书", { exact: true }).click();
  await form.getByLabel("年级或年龄段").selectOption({ label: "小学四至六年级" });
  await form.getByRole("button", { name: "免费报名" }).click();

  const done = page.getByRole("status").filter({ hasText: "报名成功" });
  await expect(done).toBeVisible();
  await expect(done).toContainText("楷书");
  await expect(done).toContainText(`${phone.slice(0, 3)}****${phone.slice(7)}`);

  // Again for the same course: the form keeps what was typed and says so kindly.
  await done.getByRole("button", { name: "再报名一门课" }).click();
  await expect(form.getByLabel("称呼 *")).toHaveValue("王同学");
  await expect(form.getByLabel("手机号 *")).toHaveValue(phone);
  await form.getByText("楷书", { exact: true }).click();
  await form.getByRole("button", { name: "免费报名" }).click();
  await expect(form.getByRole("alert")).toHaveText(TRIAL_DUPLICATE_MESSAGE);
  await expect(form.getByLabel("称呼 *")).toHaveValue("王同学");
  await expect(form.getByLabel("手机号 *")).toHaveValue(phone);
  await expect(form.getByLabel("楷书")).toBeChecked();

  // Another course with the same phone is fine.
  await form.getByText("硬笔", { exact: true }).click();
  await form.getByRole("button", { name: "免费报名" }).click();
  await expect(page.getByRole("status").filter({ hasText: "报名成功" })).toContainText("硬笔");
  expect(provoked(consoleErrors, 409)).toEqual([]);
});

test("a signed-in learner finds the phone filled in, then the name used before", async ({ page, consoleErrors }) => {
  const phone = freshPhone("17");
  await page.goto("/experience");
  await waitForHydration(page);
  await phoneLogin(page, await openLoginDialog(page), phone);
  await skipCompleteInfo(page);

  const form = page.getByRole("form", { name: "免费报名" });
  await expect(form.getByLabel("手机号 *")).toHaveValue(phone);
  // The made-up nickname is not offered as a name.
  await expect(form.getByLabel("称呼 *")).toHaveValue("");
  await form.getByLabel("称呼 *").fill("陈女士");
  await form.getByText("写作", { exact: true }).click();
  await form.getByRole("button", { name: "免费报名" }).click();
  await expect(page.getByRole("status").filter({ hasText: "报名成功" })).toBeVisible();

  await page.reload();
  await waitForHydration(page);
  await expect(form.getByLabel("称呼 *")).toHaveValue("陈女士");
  await form.getByText("写作", { exact: true }).click();
  await expect(form.getByText("您已报名过写作体验课，老师会尽快与您联系。")).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test("an activity: its landing content, its share page, and 404 for an unknown token", async ({
  page,
  consoleErrors,
}) => {
  await page.goto("/show/activity");
  await waitForHydration(page);
  await page.getByRole("link", { name: "春日临帖季" }).click();
  await expect(page).toHaveURL(/\/activitys\/spring-2026$/);
  await expect(page.getByRole("heading", { level: 1, name: "春日临帖季" })).toBeVisible();
  await expect(page.locator(".activity__kind")).toContainText("进行中");
  for (const heading of ["怎么参加", "打卡与日记", "推荐字帖"]) {
    await expect(page.getByRole("heading", { name: heading })).toBeVisible();
  }
  await expect(page.getByRole("heading", { name: "配套课程" })).toBeVisible();

  await page.getByRole("link", { name: "分享活动" }).click();
  await expect(page).toHaveURL(/\/activitys\/spring-2026\/share$/);
  const qr = page.getByRole("img", { name: "春日临帖季活动页二维码" });
  await expect(qr).toBeVisible();
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(page.getByLabel("活动链接")).toHaveValue(/\/activitys\/spring-2026$/);
  await page.getByRole("button", { name: "复制链接" }).click();
  await expect(page.getByRole("status").filter({ hasText: /复制/ })).toBeVisible();
  expect(consoleErrors).toEqual([]);

  const missing = await page.goto("/activitys/no-such-activity");
  expect(missing?.status()).toBe(404);
  await expect(page.getByText("This page could not be found")).toBeVisible();
  expect(provoked(consoleErrors, 404)).toEqual([]);
});

test("a kind's page shows its current activity", async ({ page, consoleErrors }) => {
  await page.goto("/activitys/reading");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1, name: "共读千字文" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "共读安排" })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});
