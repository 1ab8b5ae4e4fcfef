import { expect, test, waitForHydration } from "./fixtures";

test("the practice gallery loads more characters as the reader scrolls, with lazy images", async ({
  page,
  consoleErrors,
}) => {
  await page.goto("/calmness");
  await waitForHydration(page);
  const cards = page.locator(".practice-card");
  await expect(cards).toHaveCount(24);
  // The gallery sits below the trainer and the sheets: its cards stay unloaded until approached.
  await expect(page.locator(".practice-card .lazy-image").first()).toHaveAttribute("data-lazy", "loading");
  await page.locator(".practice-gallery h2").evaluate((el) => el.scrollIntoView({ block: "start" }));
  await expect(page.locator(".practice-card .lazy-image").first()).toHaveAttribute("data-lazy", "loaded");
  await page.mouse.wheel(0, 4000);
  await expect.poll(() => cards.count()).toBeGreaterThan(24);
  expect(consoleErrors).toEqual([]);
});

test("when the list fails it offers a retry that works", async ({ page }) => {
  let fail = true;
  await page.route(/\/api\/practice\/characters\?offset=24/, (route) =>
    fail ? route.fulfill({ status: 500, body: "{}" }) : route.continue(),
  );
  await page.goto("/calmness");
  await waitForHydration(page);
  await expect(page.locator(".practice-card")).toHaveCount(24);
  await page.mouse.wheel(0, 6000);
  await expect(page.getByText("加载失败了，请稍后再试")).toBeVisible();
  fail = false;
  await page.getByRole("button", { name: "重试" }).click();
  await expect.poll(() => page.locator(".practice-card").count()).toBeGreaterThan(24);
});

test("today's character is shown in the brush hand, not a print face", async ({ page, consoleErrors }) => {
  await page.goto("/calmness");
  await waitForHydration(page);
  const today = page.locator(".practice-today__char");
  expect(await today.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/^"?Ma Shan Zheng/);
  const char = (await today.textContent()) ?? "";
  const faces = await page.evaluate(async (c) => (await document.fonts.load('56px "Ma Shan Zheng"', c)).length, char);
  expect(faces).toBeGreaterThan(0);
  expect(consoleErrors).toEqual([]);
});
