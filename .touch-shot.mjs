import { chromium } from "@playwright/test";
const [url, out, w, h, mobile] = process.argv.slice(2);
const b = await chromium.launch({ executablePath: "/usr/bin/chromium" });
const ctx = await b.newContext({ viewport: { width: Number(w), height: Number(h) }, isMobile: mobile === "1", hasTouch: true, deviceScaleFactor: 1 });
const p = await ctx.newPage();
if (process.env.WHO) {
  await p.goto(new URL("/", url).href);
  await p.evaluate(async (who) => { await fetch("/api/auth/email/login", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email: `${who}@mochi.local`, password: `Mochi-${who}-2026` }) }); }, process.env.WHO);
}
await p.goto(url);
await p.waitForTimeout(2500);
if (process.env.CLICK) { await p.getByRole("button", { name: process.env.CLICK }).first().click(); await p.waitForTimeout(2500); }
await p.addStyleTag({ content: ".site-header{display:none!important}" });
if (process.env.SCROLL) await p.evaluate((s) => document.querySelector(s)?.scrollIntoView(), process.env.SCROLL);
await p.waitForTimeout(500);
console.log(await p.evaluate(() => ({ sw: document.documentElement.scrollWidth, iw: innerWidth, url: location.pathname + location.search })));
await p.screenshot({ path: out, fullPage: process.env.FULL === "1" });
await b.close();
