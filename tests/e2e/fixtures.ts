import { test as base, type Browser, type ConsoleMessage, expect, type Locator, type Page } from "@playwright/test";

/** Collects a page's console errors and uncaught exceptions into a list. */
function recordErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg: ConsoleMessage) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  return errors;
}

/** Every test page records console errors and uncaught exceptions; tests assert there are none. */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: async ({ page }, use) => {
    await use(recordErrors(page));
  },
});

/** Another person in a browser of their own (same settings as the test's), with its console errors collected. */
export async function otherBrowser(browser: Browser, baseURL: string) {
  const context = await browser.newContext({
    baseURL,
    locale: "zh-CN",
    timezoneId: "Asia/Shanghai",
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  return { context, page, errors: recordErrors(page) };
}
export { expect };

/** Resolves once the client router has hydrated (links are then handled by the router). */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === "true");
}

/**
 * Whether React has hydrated the element: React keeps its fiber on every DOM node it hydrated or
 * created, under a key starting `__reactFiber$`. A part whose code has not come yet (decision 059)
 * still shows the server's HTML, with no such key.
 */
export async function isHydrated(element: Locator): Promise<boolean> {
  return element.evaluate((node) => Object.keys(node).some((key) => key.startsWith("__reactFiber$")));
}

/** Resolves once React has hydrated the element (a part of the page hydrating on its own). */
export async function waitForPartHydration(element: Locator) {
  await expect.poll(() => isHydrated(element), { message: "the part is hydrated" }).toBe(true);
}

/** Waits until every open dialog has finished its enter animation (so a screenshot shows it whole). */
export async function dialogsSettled(page: Page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll(".modal")].every((m) => m.getAnimations().every((a) => a.playState !== "running")),
  );
}
