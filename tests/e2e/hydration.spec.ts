import { walkRoutes } from "../../shared/routes";
import { expect, test, waitForHydration } from "./fixtures";

const sampleParams: Record<string, string> = {
  id: "12",
  token: "spring-2026",
  ticket: "aB3dE5fG7hJ9kL1mN3pQ5r",
  groupNo: "GB26112200000001",
};
const pages = walkRoutes()
  .filter(({ def }) => !def.children && !def.id.startsWith("fixture") && def.id !== "course_old")
  .map(({ fullPath }) => fullPath.replace(/:(\w+)/g, (_, n: string) => sampleParams[n] ?? "x"));

/** Sample values that name nothing (and a share page without its id): the 404 page, which hydrates as well. */
const unknownSamples = new Set([`/groupbuy/${sampleParams.groupNo}`, "/homework/share"]);

/** The walk in parts of a dozen pages, each with its own time budget on a busy machine. */
const PAGES_PER_TEST = 12;
const parts = Array.from({ length: Math.ceil(pages.length / PAGES_PER_TEST) }, (_, i) =>
  pages.slice(i * PAGES_PER_TEST, (i + 1) * PAGES_PER_TEST),
);

test("the walk covers every route", () => {
  expect(parts.flat()).toEqual(pages);
  expect(pages.length).toBeGreaterThan(40);
});

for (const [index, part] of parts.entries())
  test(`every route hydrates without a console error (part ${index + 1} of ${parts.length})`, async ({
    page,
    consoleErrors,
  }) => {
    test.setTimeout(180_000);
    await walk(part, page, consoleErrors);
  });

async function walk(urls: string[], page: import("@playwright/test").Page, consoleErrors: string[]) {
  for (const url of urls) {
    const res = await page.goto(url);
    await waitForHydration(page);
    if (unknownSamples.has(url)) {
      expect(res?.status(), url).toBe(404);
      // Chromium's own line for the document's 404 is the only error allowed there.
      const own = consoleErrors.findIndex((e) => e.includes("404"));
      if (own >= 0) consoleErrors.splice(own, 1);
    }
    expect(consoleErrors, `console errors on ${url}`).toEqual([]);
  }
}
