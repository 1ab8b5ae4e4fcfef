/**
 * Small things on a new learner's way: the ledger table has column spacing, 个人资料 offers the
 * same province list as 完善资料, and the header offers no 登录 behind 完善资料 (login-dialog.spec).
 */
import { mkdirSync } from "node:fs";
import { expect, test, waitForHydration } from "./fixtures";
import { freshPhone, readCode } from "./login-helpers";

const SHOTS = "test-results/shots-small-things";
mkdirSync(SHOTS, { recursive: true });

test("the coin ledger's columns are spaced; 个人资料 picks the region from the province list", async ({
  page,
  consoleErrors,
}) => {
  await page.goto("/");
  const phone = freshPhone("14");
  const headers = { Origin: new URL(page.url()).origin };
  expect((await page.request.post("/api/auth/sms/send", { data: { phone }, headers })).status()).toBe(200);
  const code = await readCode(page, phone, "login");
  expect((await page.request.post("/api/auth/sms/login", { data: { phone, code }, headers })).status()).toBe(200);
  expect((await page.request.post("/api/wallet/check-in", { data: {}, headers })).status()).toBe(200);

  await page.goto("/my/exchange/record/coin");
  await waitForHydration(page);
  const cell = page.locator("table.record-table td").first();
  await expect(cell).toBeVisible();
  expect(await cell.evaluate((td) => getComputedStyle(td).paddingLeft)).toBe("12px");
  expect(await cell.evaluate((td) => getComputedStyle(td).paddingRight)).toBe("12px");
  await page.screenshot({ path: `${SHOTS}/ledger.png` });

  await page.goto("/my/information");
  await waitForHydration(page);
  const region = page.getByRole("combobox", { name: /地区/ });
  await expect(region.locator("option")).toHaveCount(36);
  await region.selectOption("浙江");
  await page.getByRole("button", { name: "保存资料" }).click();
  await expect(page.getByRole("status").filter({ hasText: "资料已保存。" })).toBeVisible();
  const me = await (await page.request.get("/api/me")).json();
  expect(me.profile.region).toBe("浙江");
  await page.screenshot({ path: `${SHOTS}/information.png` });
  expect(consoleErrors).toEqual([]);
});
