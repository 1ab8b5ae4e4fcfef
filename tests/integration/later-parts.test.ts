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

it("the lesson page's first render holds its outline and course card in place", async () => {
  const res = await request(t.app).get("/video/1").set("User-Agent", BROWSER_UA);
  expect(res.status).toBe(200);
  const main = res.text.slice(res.text.indexOf('id="main"'), res.text.indexOf("</main>"));
  expect(main).toContain("课程目录");
  expect(main).toContain("查看课程详情");
  expect(res.text).not.toContain('hidden id="S:');
  expect(res.text).not.toContain("$RC");
});

it("the home page's first render holds its shelves in place", async () => {
  const res = await request(t.app).get("/").set("User-Agent", BROWSER_UA);
  expect(res.status).toBe(200);
  const main = res.text.slice(res.text.indexOf('id="main"'), res.text.indexOf("</main>"));
  expect(main).toContain("热门课程");
  expect(main).toContain("catalogue-card--course");
  expect(res.text).not.toContain('hidden id="S:');
  expect(res.text).not.toContain("$RC");
});
