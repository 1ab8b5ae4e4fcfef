import { chromium } from "@playwright/test";
const b = await chromium.launch({ executablePath: "/usr/bin/chromium" });
const ctx = await b.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
const p = await ctx.newPage();
await p.goto("http://127.0.0.1:3490/calmness");
await p.waitForTimeout(2500);
console.log(await p.evaluate(() => [".trainer", ".trainer__paper", ".trainer__side", ".trainer__side .trainer__group", ".trainer__hint", ".practice-trainer", "main"].map((s) => { const e = document.querySelector(s); const r = e.getBoundingClientRect(); const cs = getComputedStyle(e); return [s, Math.round(r.x), Math.round(r.width), Math.round(r.height), cs.display, cs.paddingLeft, cs.gridTemplateRows]; })));
await b.close();
