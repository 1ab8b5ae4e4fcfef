import { chromium } from "@playwright/test";
const b = await chromium.launch({ executablePath: "/usr/bin/chromium" });
for (const opts of [{ hasTouch: true, isMobile: false }, { hasTouch: false }, { hasTouch: true, isMobile: true }]) {
  const ctx = await b.newContext({ viewport: { width: 1024, height: 768 }, ...opts });
  const p = await ctx.newPage();
  console.log(JSON.stringify(opts), await p.evaluate(() => ["(hover: none)", "(pointer: coarse)", "(any-pointer: coarse)"].map((q) => matchMedia(q).matches)));
}
await b.close();
