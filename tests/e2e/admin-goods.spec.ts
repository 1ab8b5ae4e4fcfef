/**
 * Operators create goods from the console: a book with a cover and its first stock, on sale at
 * once, and a stationery item with two variants; a learner then finds each on its public page.
 * Both are taken off sale at the end so the specs after this one see the catalogue as seeded.
 */
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { expect, test, waitForHydration } from "./fixtures";
import { signInDemo } from "./homework-helpers";
import { SHOTS } from "./login-helpers";

// Each test signs two people in and creates an item with a cover: more than the default minute on a busy machine.
test.describe.configure({ mode: "serial", timeout: 180_000 });

const coverPng = () =>
  sharp({ create: { width: 300, height: 400, channels: 3, background: { r: 160, g: 40, b: 30 } } })
    .png()
    .toBuffer();

async function takeOffSale(page: Page, path: string) {
  const res = await page.request.patch(path, {
    data: { status: "draft" },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(res.status()).toBe(200);
}

test("an operator creates a book with a cover and stock, on sale; a learner finds it", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  const stamp = Date.now() % 100000;
  const title = `欧阳询九成宫醴泉铭 ${stamp}`;
  await signInDemo(page, "operator");
  await page.goto("/admin/books");
  await waitForHydration(page);
  await page.getByRole("link", { name: "新建图书" }).click();
  await page.waitForURL("**/admin/books/new");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "新建图书", level: 1 })).toBeVisible();

  const form = page.getByRole("form", { name: "图书信息" });
  // The form's own check names each field before anything is sent.
  await form.getByLabel("售价（元）").fill("abc");
  await form.getByRole("button", { name: "创建图书" }).click();
  await expect(form.getByText("请填写书名")).toBeVisible();
  await expect(form.getByText("请填写售价（元，最多两位小数）")).toBeVisible();
  await expect(form.getByLabel("书名")).toHaveAttribute("aria-invalid", "true");

  await form.getByLabel("书名").fill(title);
  await form.getByLabel("作者").fill("欧阳询");
  await form.getByLabel("出版社").fill("墨池出版社");
  await form.getByLabel("ISBN").fill(`9787${String(Date.now()).slice(-9)}`);
  await form.getByLabel("分类").fill("碑帖");
  await form.getByLabel("售价（元）").fill("45");
  await form.getByLabel("划线价（元）").fill("58");
  await form.getByLabel("页数").fill("64");
  await form.getByLabel("封面字").fill("欧");
  await form.getByLabel("初始库存（本）").fill("30");
  await form.getByLabel("简介").fill("唐楷极则，原碑拓本高清影印。");
  await form.getByLabel("封面图片（可选）").setInputFiles({
    name: "cover.png",
    mimeType: "image/png",
    buffer: await coverPng(),
  });
  await form.getByLabel("创建后立即上架").check();
  await page.screenshot({ path: `${SHOTS}/admin-book-new.png`, fullPage: true });
  await form.getByRole("button", { name: "创建图书" }).click();

  await page.waitForURL(/\/admin\/books\/\d+$/);
  const bookId = Number(new URL(page.url()).pathname.split("/").pop());
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "库存：30 本" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "初始库存" })).toBeVisible();
  await expect(page.getByRole("img", { name: "图书封面" })).toBeVisible();
  await expect(page.getByText("已上架", { exact: true })).toBeVisible();

  const learner = await browser.newContext({ baseURL });
  const lp = await learner.newPage();
  await signInDemo(lp, "learner");
  await lp.goto(`/books/${bookId}`);
  await waitForHydration(lp);
  await expect(lp.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  await expect(lp.getByText("欧阳询").first()).toBeVisible();
  await learner.close();

  await takeOffSale(page, `/api/admin/books/${bookId}`);
  expect(consoleErrors).toEqual([]);
});

test("an operator creates a stationery item with two variants, on sale; a learner finds it", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  const title = `紫毫小楷笔 ${Date.now() % 100000}`;
  await signInDemo(page, "operator");
  await page.goto("/admin/stationery");
  await waitForHydration(page);
  await page.getByRole("link", { name: "新建文房" }).click();
  await page.waitForURL("**/admin/stationery/new");
  await waitForHydration(page);

  const form = page.getByRole("form", { name: "文房信息" });
  await form.getByLabel("商品名称").fill(title);
  await form.getByLabel("分类").fill("毛笔");
  await form.getByLabel("封面字").fill("笔");
  await form.getByLabel("简介").fill("写小楷、抄经");
  await form.getByLabel("详情").fill("紫毫为柱，出锋 1.8 厘米，适合蝇头小楷。");
  await form.getByLabel("封面图片（可选）").setInputFiles({
    name: "cover.png",
    mimeType: "image/png",
    buffer: await coverPng(),
  });
  const first = form.getByRole("group", { name: "规格 1" });
  await first.getByLabel("规格名称").fill("小号");
  await first.getByLabel("售价（元）").fill("36");
  await first.getByLabel("划线价（元）").fill("48");
  await first.getByLabel("初始库存（件）").fill("15");
  await form.getByRole("button", { name: "＋ 添加规格" }).click();
  const second = form.getByRole("group", { name: "规格 2" });
  await second.getByLabel("规格名称").fill("小号");
  await second.getByLabel("售价（元）").fill("42");
  await second.getByLabel("初始库存（件）").fill("8");
  await form.getByLabel("创建后立即上架").check();
  // Two variants of the same name are refused beside the second one, before anything is sent.
  await form.getByRole("button", { name: "创建文房商品" }).click();
  await expect(second.getByText("规格名称不能重复")).toBeVisible();
  await second.getByLabel("规格名称").fill("中号");
  await page.screenshot({ path: `${SHOTS}/admin-stationery-new.png`, fullPage: true });
  await form.getByRole("button", { name: "创建文房商品" }).click();

  await page.waitForURL(/\/admin\/stationery\/\d+$/);
  const itemId = Number(new URL(page.url()).pathname.split("/").pop());
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  await expect(page.getByRole("img", { name: "商品封面" })).toBeVisible();
  for (const [name, stock] of [
    ["小号", 15],
    ["中号", 8],
  ] as const) {
    await expect(page.getByRole("heading", { name: new RegExp(`：${name} · 库存 ${stock} 件`) })).toBeVisible();
    const history = page.getByRole("table", { name: `${name} 的库存变动记录` });
    await expect(history.getByRole("cell", { name: "初始库存" })).toBeVisible();
  }

  const learner = await browser.newContext({ baseURL });
  const lp = await learner.newPage();
  await signInDemo(lp, "learner");
  await lp.goto(`/commodity/${itemId}`);
  await waitForHydration(lp);
  await expect(lp.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  await expect(lp.getByRole("button", { name: /中号/ })).toBeVisible();
  await expect(lp.getByRole("button", { name: /小号/ })).toBeVisible();
  await learner.close();

  await takeOffSale(page, `/api/admin/commodities/${itemId}`);
  expect(consoleErrors).toEqual([]);
});
