/**
 * Parts of a page that hydrate on their own (decision 059) are still written in place by the
 * server, on the first request after start too: the renderer waits for a page module's parts to
 * load before it renders, so it never streams their empty fallback and moves them in by script.
 * This file's module registry is its own, so each page's module is new on its first request here.
 */
import request from "supertest";
import { afterAll, beforeAll, expect, it } from "vitest";
import { BROWSER_UA, testApp } from "./helpers";

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp({}, {}, {}, { catalogue: true });
});
afterAll(async () => {
  await t.dispose();
});

it.each([
  ["the lesson page", "/video/1", ["课程目录", "查看课程详情"]],
  ["the home page", "/", ["热门课程", "catalogue-card--course"]],
])("%s's first render (%s) holds its parts in place", async (_, path, texts) => {
  const res = await request(t.app).get(path).set("User-Agent", BROWSER_UA);
  expect(res.status).toBe(200);
  const main = res.text.slice(res.text.indexOf('id="main"'), res.text.indexOf("</main>"));
  for (const text of texts) expect(main).toContain(text);
  expect(res.text).not.toContain('hidden id="S:');
  expect(res.text).not.toContain("$RC");
});
