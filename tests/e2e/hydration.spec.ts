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

test("every route hydrates without a console error", async ({ page, consoleErrors }) => {
  test.setTimeout(180_000);
  for (const url of pages) {
    await page.goto(url);
    await waitForHydration(page);
    expect(consoleErrors, `console errors on ${url}`).toEqual([]);
  }
});
