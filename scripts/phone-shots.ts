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
import {
  ANDROID_UA,
  PHONE_MY_PAGES,
  PHONE_PUBLIC_PAGES,
  WECHAT_UA,
  detailPages,
  fits,
  layoutProblems,
} from "../tests/e2e/phone-layout";

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
const details = await detailPages(page, base);
for (const m of details.missing) console.log(`not found: ${m}`);
const paths = [...PHONE_PUBLIC_PAGES, ...PHONE_MY_PAGES, ...details.found];
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
