import { expect, test, waitForHydration } from "./fixtures";

test("the customer-service dialog opens, keeps focus inside, and Esc closes it", async ({ page, consoleErrors }) => {
  await page.goto("/about");
  await waitForHydration(page);
  const opener = page.getByRole("button", { name: "客服" });
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "联系客服" });
  await expect(dialog).toBeVisible();
  await expect(page.locator(".modal", { has: dialog })).toHaveCSS("z-index", "1000");
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe("hidden");
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
  expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe("hidden");
  expect(consoleErrors).toEqual([]);
});

test("the auth guard's destination opens the login dialog", async ({ page }) => {
  const res = await page.goto("/my/order");
  expect(res?.url()).toMatch(/\/\?login=1&redirect=%2Fmy%2Forder$/);
  await waitForHydration(page);
  await expect(page.getByRole("dialog", { name: "登录墨池课堂" })).toBeVisible();
});
