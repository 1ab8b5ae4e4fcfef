/**
 * Search covers live sessions, public lessons, playback and activities besides the catalogue:
 * a tab per kind with its count, the tab in the address, the match highlighted.
 */
import { expect, test, waitForHydration } from "./fixtures";

test("searching 直播 finds live sessions: the 直播 tab, its count, and the match marked", async ({
  page,
  consoleErrors,
}) => {
  await page.goto(`/search?q=${encodeURIComponent("直播")}`);
  await waitForHydration(page);
  const tabs = page.getByRole("navigation", { name: "搜索范围" });
  for (const label of ["直播", "公开课", "回放", "活动"]) {
    await expect(tabs.getByRole("link", { name: new RegExp(`^${label}\\s*\\d+$`) })).toBeVisible();
  }
  const live = tabs.getByRole("link", { name: /^直播\s*\d+$/ });
  await live.click();
  await expect(page).toHaveURL(/[?&]type=live(&|$)/);
  await expect(live).toHaveAttribute("aria-current", "page");
  const results = page.locator('main a[href^="/live/"]');
  await expect(results.first()).toBeVisible();
  await expect(page.locator("main mark").first()).toHaveText("直播");
  // Each result's character is drawn in the brush hand, loaded with the page.
  const cover = page.locator(".search-entry__cover").first();
  expect(await cover.evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/^"?Ma Shan Zheng/);
  const faces = await page.evaluate(async () => (await document.fonts.load('30px "Ma Shan Zheng"', "题")).length);
  expect(faces).toBeGreaterThan(0);
  await page.screenshot({ path: "test-results/shots-search-live.png" });
  expect(consoleErrors).toEqual([]);
});
