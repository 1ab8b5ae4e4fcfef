/**
 * What the first paint of a page needs comes with the document (decision 049): the page's
 * stylesheets inlined in the head with the response's CSP nonce (also when the page comes from
 * the page cache), font stylesheets linked switched off (and plainly inside <noscript>), and the
 * main picture at the top of the course and practice pages in the page with fetchpriority=high.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onlyFontFaces } from "../../server/assets";
import { BROWSER_UA, clientDir, testApp } from "./helpers";

type Harness = Awaited<ReturnType<typeof testApp>>;
let h: Harness;

beforeAll(async () => {
  h = await testApp(
    { pageCache: { maxEntries: 100, maxBytes: 16 * 1024 * 1024, ttlMs: 60_000 } },
    {},
    {},
    { catalogue: true },
  );
});
afterAll(async () => {
  await h.dispose();
});

async function page(url: string, hit = false) {
  // Through the handler that answers stored pages ahead of Express, as the server does.
  const res = await request(h.handler).get(url).set("User-Agent", BROWSER_UA);
  expect(res.status, url).toBe(200);
  if (hit) expect(res.headers["x-page-cache"], url).toBe("hit");
  const nonce = /'nonce-([^']+)'/.exec(String(res.headers["content-security-policy"]))?.[1];
  expect(nonce, url).toBeTruthy();
  const head = res.text.slice(0, res.text.indexOf("</head>"));
  return { html: res.text, head, nonce: nonce! };
}

/** The stylesheet links of a head outside <noscript>, with their attributes. */
const linkedSheets = (head: string) =>
  (head.replace(/<noscript>[\s\S]*?<\/noscript>/g, "").match(/<link rel="stylesheet"[^>]*>/g) ?? []).map((tag) => ({
    tag,
    href: /href="([^"]+)"/.exec(tag)![1]!,
  }));

const fontStylesheet = () => {
  const manifest = JSON.parse(readFileSync(path.join(clientDir, ".vite/manifest.json"), "utf8")) as Record<
    string,
    { css?: string[] }
  >;
  const home = manifest["client/features/home/Home.page.tsx"]!;
  const all = new Set(Object.values(manifest).flatMap((c) => c.css ?? []));
  const fonts = [...all].filter((css) => onlyFontFaces(readFileSync(path.join(clientDir, css), "utf8")));
  expect(fonts).toHaveLength(1);
  return { href: `/${fonts[0]!}`, homeCss: home.css ?? [] };
};

describe("the first paint needs no other request", () => {
  it("the home page: its rules inline with the response's nonce, no stylesheet to wait for", async () => {
    for (const attempt of [1, 2]) {
      // The second answer comes from the page cache, with a fresh nonce in the same places.
      const { head, nonce } = await page("/", attempt === 2);
      const styles = [...head.matchAll(/<style nonce="([^"]+)" data-href="([^"]+)">([\s\S]*?)<\/style>/g)];
      expect(styles.length, `attempt ${attempt}`).toBeGreaterThan(1);
      for (const [, styleNonce, href, text] of styles) {
        expect(styleNonce).toBe(nonce);
        expect(text).toBe(readFileSync(path.join(clientDir, href!.slice(1)), "utf8"));
      }
      expect(styles.map((s) => s[2])).toContain(`/${fontStylesheet().homeCss.find((c) => c.includes("Home"))}`);
      // Every stylesheet link in the head is switched off: nothing is fetched before the first paint.
      const links = linkedSheets(head);
      expect(links.length).toBeGreaterThan(1);
      for (const { tag } of links) expect(tag).toContain('disabled=""');
    }
  });

  it("the brush hand's @font-face rules are not inlined, but linked switched off and in <noscript>", async () => {
    const { head } = await page("/");
    const { href } = fontStylesheet();
    expect(head).not.toContain(`data-href="${href}"`);
    expect(head).not.toContain("@font-face");
    expect(head).toContain(`<link rel="stylesheet" href="${href}" disabled="" data-font-face=""/>`);
    expect(head).toContain(`<noscript><link rel="stylesheet" href="${href}"/></noscript>`);
  });

  it("pages without the brush hand link no font stylesheet", async () => {
    const { head } = await page("/about");
    expect(head).not.toContain("data-font-face");
    expect(head).not.toContain("<noscript>");
  });

  it("the course cover is in the page and fetched first (fetchpriority=high), not left to the lazy loader", async () => {
    const course = await h
      .services!.api.database.db.selectFrom("courses")
      .select("id")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const { html } = await page(`/course/${course.id}`);
    const cover = /<img class="lazy-image__img" src="([^"]+)" alt="[^"]*封面"[^>]*>/.exec(html);
    expect(cover?.[1]).toMatch(/^\/media\/cover\//);
    expect(cover?.[0]).toContain('fetchPriority="high"');
  });

  it("a book's cover and an item's first picture likewise", async () => {
    const db = h.services!.api.database.db;
    const book = await db.selectFrom("books").select("id").orderBy("id").executeTakeFirstOrThrow();
    const item = await db.selectFrom("commodities").select("id").orderBy("id").executeTakeFirstOrThrow();
    for (const path of [`/books/${book.id}`, `/commodity/${item.id}`]) {
      const { html } = await page(path);
      expect(html, path).toMatch(/<img class="lazy-image__img"[^>]*fetchPriority="high"[^>]*>/);
    }
  });

  it("a list's first row of covers comes with the document, the rest stays with the lazy loader", async () => {
    for (const [path, firstRow] of [
      ["/product/list", 4],
      ["/live", 4],
      ["/stationery", 5],
      ["/video", 4],
    ] as const) {
      const { html } = await page(path);
      const pictures = (html.match(/<span class="lazy-image /g) ?? []).length;
      const eager = (html.match(/<img class="lazy-image__img"[^>]*fetchPriority="high"[^>]*>/g) ?? []).length;
      const lazy = (html.match(/data-lazy="loading"/g) ?? []).length;
      expect(pictures, path).toBeGreaterThan(0);
      expect(eager, path).toBe(Math.min(firstRow, pictures));
      expect(lazy, path).toBe(pictures - eager);
    }
  });

  it("the practice page's 今日一字 likewise", async () => {
    const { html } = await page("/calmness");
    const today = /<img class="lazy-image__img" src="([^"]+)" alt="今日一字[^"]*"[^>]*>/.exec(html);
    expect(today?.[1]).toMatch(/^\/media\/glyph\//);
    expect(today?.[0]).toContain('fetchPriority="high"');
  });
});
