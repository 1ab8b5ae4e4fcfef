/**
 * Screenshots of the learner's pages on a phone (390×844, touch, zh-CN), with the layout problems
 * of each (tests/e2e/phone-layout.ts): the acceptance look a person takes before calling a page
 * done. Needs a running site with its demo data (`npm start`, or the test server).
 *
 *   npx tsx scripts/phone-shots.ts [base URL] [--only substring] [--width 390] [--ua wechat]
 *
 * Pictures go to test-results/phone-shots/<width>/; the problems are printed, one page a line.
 */
import { mkdirSync } from "node:fs";
import { chromium, type Page } from "@playwright/test";
import { ANDROID_UA, WECHAT_UA, fits, layoutProblems } from "../tests/e2e/phone-layout";

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const only = flag("only");
const width = Number(flag("width") ?? 390);
const ua = flag("ua") === "wechat" ? WECHAT_UA : ANDROID_UA;
const base = (args[0] ?? "http://127.0.0.1:3000").replace(/\/$/, "");
const out = `test-results/phone-shots/${width}`;
mkdirSync(out, { recursive: true });

const PUBLIC = [
  "/",
  "/product/list",
  "/video",
  "/live",
  "/playback",
  "/books",
  "/books/tabs",
  "/stationery",
  "/experience",
  "/homework",
  "/calmness",
  "/search?keyword=楷书",
  "/show/activity",
  "/activitys/bmyx",
  "/activitys/daycourse",
  "/activitys/reading",
  "/activitys/travel_note",
  "/about",
  "/guide",
  "/guide/live",
  "/agreement",
  "/deletion-agreement",
  "/protocol",
  "/protocol/contact",
  "/protocol/feedback",
  "/protocol/privacy",
  "/protocol/service",
  "/bowser",
];
const MY = [
  "/my",
  "/my/allcourse",
  "/my/activities",
  "/my/calendar",
  "/my/dairy",
  "/my/exchange",
  "/my/exchange/record",
  "/my/exchange/record/coin",
  "/my/exchange/record/bishan",
  "/my/homework",
  "/my/information",
  "/my/order",
  "/my/packs",
  "/my/security",
];
/** Detail pages: the first link of each kind found on its list page. */
const DETAILS: Array<[list: string, pattern: RegExp]> = [
  ["/product/list", /^\/course\/\d+$/],
  ["/video", /^\/video\/PublicCourseItem\?id=\d+$/],
  ["/books", /^\/books\/\d+$/],
  ["/stationery", /^\/commodity\/\d+$/],
  ["/live", /^\/live\/\d+$/],
  ["/homework", /^\/homework\/share\?/],
  ["/my/exchange", /^\/my\/exchange\/detail\?/],
  ["/show/activity", /^\/activitys\/[^/]+$/],
];

async function firstLink(page: Page, list: string, pattern: RegExp): Promise<string | null> {
  await page.goto(base + list, { waitUntil: "networkidle" });
  const hrefs = await page.$$eval("a[href]", (as) => as.map((a) => a.getAttribute("href") ?? ""));
  return hrefs.find((h) => pattern.test(h)) ?? null;
}

async function signIn(page: Page) {
  await page.goto(base + "/");
  const status = await page.evaluate(async () => {
    const res = await fetch("/api/auth/email/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "learner@mochi.local", password: "Mochi-learner-2026" }),
    });
    return res.status;
  });
  if (status !== 200) throw new Error(`sign-in answered ${status}`);
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
const context = await browser.newContext({
  viewport: { width, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
  locale: "zh-CN",
  timezoneId: "Asia/Shanghai",
  userAgent: ua,
});
// tsx keeps function names with a helper (`__name`) that the page does not have.
await context.addInitScript("window.__name = (f) => f");
const page = await context.newPage();
await signIn(page);
const paths = [...PUBLIC, ...MY];
// The lesson page: the first lesson of the first course.
const course = await firstLink(page, "/product/list", /^\/course\/\d+$/);
if (course) {
  paths.push(course);
  const lesson = await firstLink(page, course, /^\/video\/\d+$/);
  if (lesson) paths.push(lesson);
}
for (const [list, pattern] of DETAILS) {
  const found = await firstLink(page, list, pattern);
  if (found) paths.push(found);
  else console.log(`no link like ${pattern} on ${list}`);
}
let bad = 0;
for (const p of paths.filter((x) => !only || x.includes(only))) {
  const res = await page.goto(base + p, { waitUntil: "networkidle" });
  await page.waitForTimeout(300);
  const problems = await layoutProblems(page);
  const name = p.replace(/[^\w\u4e00-\u9fff-]+/g, "_").replace(/^_|_$/g, "") || "home";
  await page.screenshot({ path: `${out}/${name}.png`, fullPage: true });
  if (!fits(problems)) bad++;
  console.log(
    `${fits(problems) ? "ok " : "BAD"} ${res?.status()} ${p}${fits(problems) ? "" : ` ${JSON.stringify(problems)}`}`,
  );
}
console.log(`${paths.length - bad} of ${paths.length} pages fit at ${width} px; pictures in ${out}`);
await browser.close();
