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

test("every route hydrates without a console error", async ({ page, consoleErrors }) => {
  test.setTimeout(180_000);
  for (const url of pages) {
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
});
