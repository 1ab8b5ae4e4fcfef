import request from "supertest";
import { beforeAll, describe, expect, it } from "vitest";
import { NOT_FOUND_MESSAGE } from "../../shared/errors";
import { accessOf, routeTable, walkRoutes } from "../../shared/routes";
import type { RouteDef } from "../../shared/route-def";
import { createSession, sessionCookieName } from "../../api/modules/auth/sessions";
import { BROWSER_UA, testApp } from "./helpers";

type TestApp = Awaited<ReturnType<typeof testApp>>;
let app: TestApp["app"];
let services: TestApp["services"];
beforeAll(async () => {
  ({ app, services } = await testApp({}, {}, {}, { catalogue: true }));
});

const sampleParams: Record<string, string> = {
  id: "12",
  token: "spring-2026",
  ticket: "aB3dE5fG7hJ9kL1mN3pQ5r",
  groupNo: "GB26112200000001",
};

function samplePath(fullPath: string): string {
  return fullPath.replace(/:(\w+)/g, (_, name: string) => sampleParams[name] ?? "x");
}

const pages = walkRoutes().filter(({ def }) => !def.children || def.children.length === 0);

/** Pages about one item (a course, a book…) are titled by the item; the others by the route table. */
function expectedTitle(def: RouteDef): string | RegExp {
  if (def.id === "home") return "<title>墨池课堂</title>";
  if (def.params) return /<title>[^<]+ - 墨池课堂<\/title>/;
  return `<title>${def.title} - 墨池课堂</title>`;
}

describe("every route of the table answers in both forms", () => {
  for (const { def, parents, fullPath } of pages) {
    const clean = samplePath(fullPath);
    const forms = [clean, clean === "/" ? "/index.html" : `${clean}/index.html`];
    for (const url of forms) {
      it(`${url}`, async () => {
        const res = await request(app).get(url).set("User-Agent", BROWSER_UA);
        const chain = [...parents, def];
        if (accessOf(chain) !== "public") {
          expect(res.status).toBe(302);
          expect(res.headers.location).toBe(`/?login=1&redirect=${encodeURIComponent(url)}`);
        } else if (def.id === "course_old") {
          expect(res.status).toBe(301);
          expect(res.headers.location).toBe("/course/12");
        } else if (def.id === "fixture.throw") {
          expect(res.status).toBe(418);
        } else if (def.id === "fixture.error-page") {
          expect(res.status).toBe(500);
        } else if (def.id === "homework.share") {
          // A share page needs the work's id (a real one's page: homework-learner.spec.ts).
          expect(res.status).toBe(404);
          expect(res.text).toContain(NOT_FOUND_MESSAGE);
        } else if (def.id === "groupbuy") {
          // No such group (a real one's page: groups.test.ts).
          expect(res.status).toBe(404);
          expect(res.text).toContain(NOT_FOUND_MESSAGE);
        } else {
          expect(res.status).toBe(200);
          expect(res.headers["content-type"]).toMatch(/^text\/html/);
          const title = expectedTitle(def);
          if (typeof title === "string") expect(res.text).toContain(title);
          else expect(res.text).toMatch(title);
          expect(res.text).toContain('<html lang="zh-CN">');
        }
      });
    }
  }
});

describe("404", () => {
  const notFound = [
    "/no-such-page",
    "/books/nope",
    "/course/abc",
    "/course/0",
    "/course/012",
    "/course/99999999999",
    "/course_old/abc",
    "/course_old/0",
    "/course_old/012",
    "/course_old/2147483648",
    "/course_old/1.5",
    "/course_old/abc/index.html",
    "/commodity/-1",
    "/video/1.5",
    "/groupbuy/123",
    "/groupbuy/GB123",
    "/groupbuy/GB26112200000001",
    "/activitys/ab",
    "/about-calligraphy",
    "/my/nothing-here",
  ];
  for (const url of notFound) {
    it(`${url} is the 404 page`, async () => {
      const res = await request(app).get(url).set("User-Agent", BROWSER_UA);
      expect(res.status).toBe(404);
      expect(res.text).toContain(NOT_FOUND_MESSAGE);
      expect(res.text).toContain("Go back to home");
    });
  }

  it("test fixtures are 404 when fixtures are off", async () => {
    const { app: plain } = await testApp({ testFixtures: false });
    for (const url of ["/__test/fast", "/__test/throughput"]) {
      const res = await request(plain).get(url);
      expect(res.status).toBe(404);
      expect(res.text).toContain(NOT_FOUND_MESSAGE);
    }
  });
});

describe("route middleware", () => {
  it("an unknown middleware name gives 500 Unknown middleware {name}", async () => {
    const broken: RouteDef = {
      id: "broken",
      path: "broken",
      page: "fixture/Fast",
      title: "坏页",
      middleware: ["nope"],
    };
    const { app: withBroken } = await testApp({}, { routes: [...routeTable, broken] });
    const res = await request(withBroken).get("/broken");
    expect(res.status).toBe(500);
    expect(res.text).toContain("Unknown middleware nope");
  });

  it("a logged-out visit to a personal page is sent to the login dialog and back", async () => {
    const res = await request(app).get("/my/order?tab=paid");
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`/?login=1&redirect=${encodeURIComponent("/my/order?tab=paid")}`);
  });

  it("the teaching area is the 404 page for a signed-in learner, in both forms", async () => {
    const api = services!.api;
    const user = await api.database.db
      .insertInto("users")
      .values({ phone: "13700001234", nickname: "学员", role: "learner" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const token = await createSession(api.database, user.id, { userAgent: "vitest", ip: "127.0.0.1" });
    const cookie = `${sessionCookieName(api.settings.cookies)}=${token}`;
    for (const url of [
      "/teach",
      "/teach/homework",
      "/teach/homework/index.html",
      "/teach/homework/review?attempt=a1",
    ]) {
      const res = await request(app).get(url).set("User-Agent", BROWSER_UA).set("Cookie", cookie);
      expect(res.status, url).toBe(404);
      expect(res.text).toContain(NOT_FOUND_MESSAGE);
      expect(res.headers["cache-control"]).toBe("private, no-store");
    }
  });

  it("an error's status and message reach the page", async () => {
    const res = await request(app).get("/__test/throw?status=503");
    expect(res.status).toBe(503);
    expect(res.text).toContain("测试用的错误");
  });

  it("a page that throws while it renders is the error page with the error's status, for browsers and crawlers", async () => {
    for (const ua of [BROWSER_UA, "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"]) {
      const res = await request(app).get("/__test/throw?status=502&in=render").set("User-Agent", ua);
      expect(res.status, ua).toBe(502);
      expect(res.text, ua).toContain("测试用的错误");
      expect(res.text, ua).not.toContain("不会显示");
      expect(res.headers.etag, ua).toBeUndefined();
    }
  });

  it("a failing error page falls back to its own text", async () => {
    const res = await request(app).get("/__test/error-page");
    expect(res.status).toBe(500);
    expect(res.text).toContain("An error occurred while showing the error page");
    expect(res.text).toContain("Go back to home");
  });

  it("a redirect to another origin is a real HTTP redirect", async () => {
    const res = await request(app).get(`/__test/external?to=${encodeURIComponent("http://127.0.0.1:9/elsewhere")}`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("http://127.0.0.1:9/elsewhere");
  });
});
