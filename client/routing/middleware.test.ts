import { describe, expect, it } from "vitest";
import { isUnsupportedBrowser } from "../../server/browser-support";
import type { Role, Viewer } from "../../shared/contracts/viewer";
import { AppError } from "../../shared/errors";
import { middlewareOf, routeTable, walkRoutes } from "../../shared/routes";
import { loginRedirectPath, middlewareRegistry } from "./middleware";
import type { MiddlewareContext } from "./nav-context";

describe("route table middleware", () => {
  it("names only registered middleware (an unknown name would be a 500 in production)", () => {
    const unknown = walkRoutes(routeTable).flatMap(({ def }) =>
      middlewareOf(def)
        .filter((name) => !(name in middlewareRegistry))
        .map((name) => `${def.id}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });
});

describe("auth redirect", () => {
  it("sends to the home page's login dialog with the way back", () => {
    expect(loginRedirectPath(new URL("http://x/my/order?tab=2"))).toBe("/?login=1&redirect=%2Fmy%2Forder%3Ftab%3D2");
  });
});

describe("the teaching area", () => {
  const teachChain = (id: string) => {
    const found = walkRoutes(routeTable).find(({ def }) => def.id === id)!;
    return [...found.parents, found.def];
  };
  const viewer = (role: Role): Viewer => ({ id: 7, nickname: "墨", avatarUrl: null, unreadNotices: 0, role });
  const ctx = (id: string, who: Viewer | null, path = "/teach/homework?view=mine"): MiddlewareContext => ({
    env: {
      isServer: true,
      viewer: who,
      unsupportedBrowser: false,
      fixtures: false,
      api: async () => undefined as never,
    },
    request: new Request(`http://x${path}`),
    url: new URL(`http://x${path}`),
    params: {},
    chain: teachChain(id),
  });
  const outcome = async (c: MiddlewareContext) => {
    try {
      await middlewareRegistry.auth!(c);
      return "open";
    } catch (err) {
      if (err instanceof Response) return `${err.status} ${err.headers.get("Location")}`;
      if (err instanceof AppError) return `${err.statusCode} ${err.message}`;
      throw err;
    }
  };

  it("sends anonymous visitors to the login dialog and back", async () => {
    expect(await outcome(ctx("teach.homework", null))).toBe(
      `302 ${loginRedirectPath(new URL("http://x/teach/homework?view=mine"))}`,
    );
  });

  it("shows signed-in learners the 404 page, on every page of the area", async () => {
    for (const id of ["teach.index", "teach.homework", "teach.homework.review"])
      expect(await outcome(ctx(id, viewer("learner"))), id).toBe("404 This page could not be found");
  });

  it("opens to teachers and operators", async () => {
    for (const role of ["teacher", "operator"] as const)
      for (const id of ["teach.index", "teach.homework", "teach.homework.review"])
        expect(await outcome(ctx(id, viewer(role))), `${role} ${id}`).toBe("open");
  });

  it("opens the operators' console to operators only", async () => {
    for (const id of ["admin.index", "admin.audit"]) {
      expect(await outcome(ctx(id, viewer("learner"), "/admin")), `learner ${id}`).toBe(
        "404 This page could not be found",
      );
      expect(await outcome(ctx(id, viewer("teacher"), "/admin")), `teacher ${id}`).toBe(
        "404 This page could not be found",
      );
      expect(await outcome(ctx(id, viewer("operator"), "/admin")), `operator ${id}`).toBe("open");
      expect(await outcome(ctx(id, null, "/admin"))).toBe(`302 ${loginRedirectPath(new URL("http://x/admin"))}`);
    }
  });

  it("leaves learners' own pages to learners", async () => {
    expect(await outcome({ ...ctx("teach.homework", viewer("learner")), chain: teachChain("my.homework") })).toBe(
      "open",
    );
  });
});

describe("browser detection", () => {
  it("refuses IE and very old engines, lets modern browsers and crawlers through", () => {
    expect(isUnsupportedBrowser("Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko")).toBe(true);
    expect(
      isUnsupportedBrowser(
        "Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/49.0.2623.112 Safari/537.36",
      ),
    ).toBe(true);
    expect(
      isUnsupportedBrowser(
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
      ),
    ).toBe(false);
    expect(
      isUnsupportedBrowser(
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15",
      ),
    ).toBe(false);
    expect(
      isUnsupportedBrowser("Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)"),
    ).toBe(false);
    expect(isUnsupportedBrowser("")).toBe(false);
  });
});
