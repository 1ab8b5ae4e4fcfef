/**
 * zod and the contracts stay out of a page's first JavaScript and load with the first request
 * that needs them (decision 030); zod runs without compiling parsers, so the CSP reports nothing.
 */
import type { Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

/** Scripts the page fetched, with whether each holds zod (its classes are named `$ZodType…`). */
function scriptLog(page: Page) {
  const scripts: { url: string; zod: boolean }[] = [];
  page.on("response", async (res) => {
    const url = new URL(res.url());
    if (!url.pathname.startsWith("/assets/") || !url.pathname.endsWith(".js")) return;
    const text = await res.text().catch(() => "");
    scripts.push({ url: url.pathname, zod: text.includes("$ZodType") });
  });
  return scripts;
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window.__cspViolations ??= []).push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
});

test("the first paint comes without zod; a client navigation loads and checks the contract", async ({
  page,
  consoleErrors,
}) => {
  const scripts = scriptLog(page);
  await page.goto("/");
  await waitForHydration(page);
  await page.waitForLoadState("networkidle");
  expect(scripts.length).toBeGreaterThan(3);
  expect(scripts.filter((s) => s.zod).map((s) => s.url)).toEqual([]);

  // The list page's loader runs in the browser: its contract (and zod) load with the request.
  await page.locator('a[href="/product/list"]').first().click();
  await expect(page).toHaveURL(/\/product\/list$/);
  await expect(page.locator(".course-grid .catalogue-card--course")).toHaveCount(12);
  expect(scripts.some((s) => s.zod)).toBe(true);

  expect(await page.evaluate(() => window.__cspViolations ?? [])).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

test("a form checks with its contract loaded on sending, without a CSP report", async ({ page, consoleErrors }) => {
  await page.goto("/experience");
  await waitForHydration(page);
  await page.locator(".trial-form__submit").click();
  // The empty form is refused field by field with the contract's messages.
  await expect(page.locator("[aria-invalid=true]").first()).toBeVisible();
  expect(await page.evaluate(() => window.__cspViolations ?? [])).toEqual([]);
  expect(consoleErrors).toEqual([]);
});
