/**
 * What a page must hold on a phone (issue: every learner page at 360–430 px): nothing wider than
 * the screen, no text under 12 px, primary buttons at least 44×44 px. Used by the phone browser
 * tests and by `npx tsx scripts/phone-shots.ts`, which screenshots every page at 390 px.
 */
import type { Locator, Page } from "@playwright/test";
import { myRoute } from "../../shared/route-groups/my";
import { walkRoutes } from "../../shared/routes";

/** The phone sizes the issue names; 390×844 is the one the phone project runs at. */
export const PHONE_SIZES = [
  { width: 360, height: 740 },
  { width: 390, height: 844 },
  { width: 430, height: 932 },
] as const;

/** A phone's browser: Chrome on Android (the phone project's user agent). */
export const ANDROID_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

/** WeChat's in-app browser on Android: the share page and the wall must read well in it. */
export const WECHAT_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/131.0.0.0 Mobile Safari/537.36 XWEB/1300289 MMWEBSDK/20241103 MMWEBID/1234 MicroMessenger/8.0.54.2760(0x28003637) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64";

/** The public pages a learner opens (item 2), signed out or in. */
export const PHONE_PUBLIC_PAGES = [
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
/** The personal centre: every `/my` child (signed in). */
export const PHONE_MY_PAGES: string[] = walkRoutes([myRoute])
  // The exchange item needs an item's id: it is found from the exchange's list (PHONE_DETAIL_LINKS).
  .filter(({ def }) => def.children === undefined && def.id !== "my.exchange.detail")
  .map(({ fullPath }) => fullPath.replace(/\/$/, "") || "/my");
/** Detail pages: the first link of each kind found on its list page. */
export const PHONE_DETAIL_LINKS: Array<[list: string, pattern: RegExp]> = [
  ["/product/list", /^\/course\/\d+$/],
  ["/product/list", /^\/course\/\d+$/],
  ["/video", /^\/video\/PublicCourseItem\?id=\d+$/],
  ["/books", /^\/books\/\d+$/],
  ["/stationery", /^\/commodity\/\d+$/],
  ["/live", /^\/live\/\d+$/],
  ["/homework", /^\/homework\/share\?/],
  ["/my/exchange", /^\/my\/exchange\/detail\?/],
  ["/show/activity", /^\/activitys\/[^/]+$/],
];

/** The first link on `list` whose address matches `pattern` (`url` makes the address absolute). */
export async function firstLink(page: Page, url: string, pattern: RegExp): Promise<string | null> {
  await page.goto(url, { waitUntil: "networkidle" });
  const hrefs = await page.$$eval("a[href]", (as) => as.map((a) => a.getAttribute("href") ?? ""));
  return hrefs.find((h) => pattern.test(h)) ?? null;
}

/**
 * The detail pages of PHONE_DETAIL_LINKS and a lesson (the first lesson of the first course), found
 * by following the list pages of the running site. `base` is its origin ("" with a baseURL).
 */
export async function detailPages(page: Page, base = ""): Promise<{ found: string[]; missing: string[] }> {
  const found: string[] = [];
  const missing: string[] = [];
  for (const [list, pattern] of PHONE_DETAIL_LINKS) {
    const link = await firstLink(page, base + list, pattern);
    if (link) found.push(link);
    else missing.push(`${pattern} on ${list}`);
  }
  const course = found.find((p) => p.startsWith("/course/"));
  const lesson = course ? await firstLink(page, base + course, /^\/video\/\d+$/) : null;
  if (lesson) found.push(lesson);
  else missing.push("a lesson of the first course");
  return { found, missing };
}

/**
 * Whether the element can be reached and tapped: scrolled into view, it lies inside the screen and
 * is the element at its centre (no bar, sheet or banner covers it).
 */
export async function reachable(element: Locator): Promise<boolean> {
  await element.scrollIntoViewIfNeeded();
  return element.evaluate((el) => {
    const r = el.getBoundingClientRect();
    if (r.left < 0 || r.right > window.innerWidth || r.top < 0 || r.bottom > window.innerHeight) return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
  });
}

export interface LayoutProblems {
  /** `document.documentElement.scrollWidth - innerWidth`, when positive. */
  overflow: number;
  /** Visible elements that reach past the screen's edge and are not clipped by a scroller. */
  wide: string[];
  /** Visible text under 12 px. */
  tinyText: string[];
  /** Primary buttons (`.button--primary`, not `--small`) under 44×44 px. */
  smallTargets: string[];
}

/** The page's phone problems, as seen in the browser now. Empty lists and 0 overflow: fine. */
export async function layoutProblems(page: Page): Promise<LayoutProblems> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const describe = (el: Element) => {
      const cls = typeof el.className === "string" ? el.className.trim().split(/\s+/).slice(0, 2).join(".") : "";
      const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 24);
      return `${el.tagName.toLowerCase()}${cls ? `.${cls}` : ""}${text ? ` «${text}»` : ""}`;
    };
    const visible = (el: Element) => {
      const style = getComputedStyle(el);
      if (style.visibility === "hidden" || style.display === "none" || Number(style.opacity) === 0) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    };
    /** Inside a sideways scroller or a clipping box that itself fits: the scroller decides. */
    const clipped = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (style.overflowX !== "visible" || style.clipPath !== "none") return true;
        if (style.position === "fixed" && (style.visibility === "hidden" || style.transform !== "none")) return true;
      }
      return false;
    };
    const wide: string[] = [];
    const offenders = new Set<Element>();
    const tinyText: string[] = [];
    const smallTargets: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll("*"))) {
      if (el.closest("[hidden], [aria-hidden='true'], .visually-hidden, script, style, template, noscript")) continue;
      if (!visible(el)) continue;
      const r = el.getBoundingClientRect();
      if ((r.right > width + 1 || r.left < -1) && !clipped(el) && getComputedStyle(el).position !== "fixed") {
        // Only the outermost offender: its children follow it out.
        offenders.add(el);
        if (!el.parentElement || !offenders.has(el.parentElement)) wide.push(describe(el));
      }
      const ownText = Array.from(el.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim());
      if (ownText && parseFloat(getComputedStyle(el).fontSize) < 12) tinyText.push(describe(el));
      if (el.matches(".button--primary:not(.button--small)") && (r.height < 43.5 || r.width < 43.5)) {
        smallTargets.push(`${describe(el)} ${Math.round(r.width)}×${Math.round(r.height)}`);
      }
    }
    return {
      overflow: Math.max(0, document.documentElement.scrollWidth - width),
      wide: wide.slice(0, 12),
      tinyText: tinyText.slice(0, 12),
      smallTargets: smallTargets.slice(0, 12),
    };
  });
}

/** True when the page has no phone problem. */
export function fits(p: LayoutProblems): boolean {
  return p.overflow === 0 && p.wide.length === 0 && p.tinyText.length === 0 && p.smallTargets.length === 0;
}
