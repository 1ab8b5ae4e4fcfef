/**
 * Every learner page on a phone (issue "Phones", item 2): at 390×844 (the phone project) and again
 * at 360×740 and 430×932, nothing wider than the screen, no text under 12 px, primary buttons at
 * least 44×44, and the page's first primary action reachable. Public pages signed out, the personal
 * centre signed in as the demo learner; detail pages are found by following the list pages.
 */
import type { Page } from "@playwright/test";
import { signInDemo } from "./homework-helpers";
import { expect, test, waitForHydration } from "./fixtures";
import {
  PHONE_MY_PAGES,
  PHONE_PUBLIC_PAGES,
  PHONE_SIZES,
  detailPages,
  fits,
  layoutProblems,
  reachable,
} from "./phone-layout";

/** Opens the page and checks it at each phone size; returns one line per problem found. */
async function problemsOf(page: Page, path: string): Promise<string[]> {
  const res = await page.goto(path);
  expect(res?.status(), `${path} answers`).toBeLessThan(400);
  await page.waitForLoadState("networkidle");
  const lines: string[] = [];
  for (const size of PHONE_SIZES) {
    await page.setViewportSize(size);
    const problems = await layoutProblems(page);
    if (!fits(problems)) lines.push(`${path} at ${size.width}: ${JSON.stringify(problems)}`);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  // The page's main action: its first primary button in the content, where it has one.
  const action = page.locator("main .button--primary:visible").first();
  if ((await action.count()) > 0 && !(await reachable(action))) {
    lines.push(`${path}: its main action «${(await action.textContent())?.trim()}» cannot be reached`);
  }
  return lines;
}

test.describe("every learner page fits a phone", () => {
  for (const path of PHONE_PUBLIC_PAGES) {
    test(`signed out: ${path}`, async ({ page }) => {
      expect(await problemsOf(page, path)).toEqual([]);
    });
  }

  test("signed out: the detail pages (course, lesson, book, commodity, live room, share page, activity)", async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const { found, missing } = await detailPages(page);
    // The exchange mall's items are listed only to signed-in learners.
    expect(missing.filter((m) => !m.includes(" on /my/"))).toEqual([]);
    const problems: string[] = [];
    for (const path of found.filter((p) => !p.startsWith("/my/"))) problems.push(...(await problemsOf(page, path)));
    expect(problems).toEqual([]);
  });

  test("signed in: every page of the personal centre and the detail pages", async ({ page }) => {
    test.setTimeout(240_000);
    await signInDemo(page, "learner");
    const { found } = await detailPages(page);
    const problems: string[] = [];
    for (const path of [...PHONE_MY_PAGES, ...found]) problems.push(...(await problemsOf(page, path)));
    expect(problems).toEqual([]);
  });
});

test("the checks see a page that is too wide", async ({ page }) => {
  // The checks themselves: a page with a box wider than the screen, tiny text and a small primary
  // button is found out on every count.
  await page.goto("/about");
  // After hydration: React would otherwise drop what was added to the server's HTML.
  await waitForHydration(page);
  await page.evaluate(() => {
    const main = document.querySelector("main")!;
    main.insertAdjacentHTML(
      "beforeend",
      '<div style="width:600px;height:20px">宽</div><p style="font-size:10px">小字</p>' +
        '<button class="button button--primary" style="min-height:0;height:30px;padding:0 4px">买</button>',
    );
  });
  const problems = await layoutProblems(page);
  expect(problems.overflow).toBeGreaterThan(0);
  expect(problems.wide.join()).toContain("宽");
  expect(problems.tinyText.join()).toContain("小字");
  expect(problems.smallTargets.join()).toContain("买");
});
