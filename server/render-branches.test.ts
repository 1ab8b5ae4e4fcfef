import { createStaticHandler, type DataRouteObject, matchRoutes } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { buildAllRoutes } from "../client/routing/all-routes";
import type { NavEnv } from "../client/routing/nav-context";
import { branchHandlers } from "./render";

const whole = createStaticHandler(buildAllRoutes((context) => context as NavEnv));

/** A concrete path for every route of the table: parameters filled in, splats given two segments. */
function samplePaths(routes: DataRouteObject[], parent = ""): string[] {
  const out: string[] = [];
  for (const route of routes) {
    const own = (route.path ?? "")
      .split("/")
      .map((seg) => (seg === "*" ? "a/b" : seg.startsWith(":") ? "7" : seg.replace(/\?$/, "")))
      .join("/");
    const path = own.startsWith("/") ? own : `${parent.replace(/\/$/, "")}/${own}`;
    out.push(path.replace(/\/+/g, "/").replace(/(.)\/$/, "$1"));
    if (route.children) out.push(...samplePaths(route.children, path));
  }
  return [...new Set(out)];
}

const idsOf = (routes: DataRouteObject[], pathname: string) =>
  matchRoutes(routes, pathname)?.map((m) => m.route.id) ?? null;

describe("a static handler per matched branch", () => {
  const paths = samplePaths(whole.dataRoutes);

  it("matches every page of the table exactly as the whole table does", () => {
    expect(paths.length).toBeGreaterThan(100);
    const handlerFor = branchHandlers(whole);
    for (const path of [...paths, "/", "/course/12345", "/no/such/page"]) {
      const expected = idsOf(whole.dataRoutes, path);
      const handler = handlerFor(path);
      expect(idsOf(handler.dataRoutes, path), path).toEqual(expected);
      // Only the branch: a page's handler holds one route per level, never the whole table.
      if (expected) expect(handler.dataRoutes.length, path).toBe(1);
    }
  });

  it("answers a path it matched before from memory, with one handler per branch", () => {
    const handlerFor = branchHandlers(whole);
    const first = handlerFor("/course/1");
    expect(handlerFor("/course/1")).toBe(first);
    expect(handlerFor("/course/2")).toBe(first);
    expect(handlerFor("/about")).not.toBe(first);
  });

  it("leaves a path that matches no page to the whole table; a forgotten path finds its branch again", () => {
    const handlerFor = branchHandlers(whole, 2);
    expect(handlerFor("/no/such/page")).toBe(whole);
    const course = handlerFor("/course/1");
    handlerFor("/course/2");
    handlerFor("/course/3");
    // "/course/1" was forgotten, and is matched again to the same branch's handler.
    expect(handlerFor("/course/1")).toBe(course);
  });
});
