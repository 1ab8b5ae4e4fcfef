import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { accessOf, middlewareOf, paramRules, routeTable, walkRoutes } from "./routes";

describe("route table", () => {
  const all = walkRoutes(routeTable);

  it("gives routes without middleware the auth middleware", () => {
    const home = all.find(({ def }) => def.id === "home")!.def;
    expect(middlewareOf(home)).toEqual(["auth"]);
  });

  it("has unique ids and a page module for every route", () => {
    const ids = all.map(({ def }) => def.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { def } of all) expect(existsSync(`client/features/${def.page}.page.tsx`), def.page).toBe(true);
  });

  it("contains every route of the spec", () => {
    const paths = new Set(all.map(({ fullPath }) => fullPath));
    const spec = [
      "/",
      "/about",
      "/about-maobi",
      "/agreement",
      "/books",
      "/bowser",
      "/calmness",
      "/deletion-agreement",
      "/experience",
      "/guide",
      "/homework",
      "/live",
      "/payment",
      "/playback",
      "/search",
      "/stationery",
      "/video",
      "/books/tabs",
      "/guide/live",
      "/homework/share",
      "/payment/success",
      "/product/list",
      "/show/activity",
      "/video/PublicCourseItem",
      "/my/logout",
      "/activitys/bmyx",
      "/activitys/daycourse",
      "/activitys/reading",
      "/activitys/travel_note",
      "/activitys/:token",
      "/activitys/:token/share",
      "/my",
      "/my/allcourse",
      "/my/calendar",
      "/my/dairy",
      "/my/exchange",
      "/my/exchange/detail",
      "/my/exchange/record",
      "/my/exchange/record/bishan",
      "/my/exchange/record/coin",
      "/my/homework",
      "/my/information",
      "/my/order",
      "/my/packs",
      "/my/security",
      "/protocol",
      "/protocol/contact",
      "/protocol/feedback",
      "/protocol/privacy",
      "/protocol/service",
      "/commodity/:id",
      "/course_old/:id",
      "/course/:id",
      "/groupbuy/:groupNo",
      "/video/:id",
    ];
    expect(spec.filter((p) => !paths.has(p))).toEqual([]);
  });

  it("makes the whole personal centre and payment personal", () => {
    for (const { def, parents, fullPath } of all) {
      if (fullPath.startsWith("/my/") && def.id !== "my.logout")
        expect(accessOf([...parents, def]), fullPath).toBe("user");
      if (fullPath.startsWith("/payment")) expect(accessOf([...parents, def]), fullPath).toBe("user");
    }
    expect(accessOf([all.find(({ def }) => def.id === "books")!.def])).toBe("public");
  });

  it("keeps the whole teaching area to staff", () => {
    const teach = all.filter(({ fullPath }) => fullPath === "/teach" || fullPath.startsWith("/teach/"));
    expect(teach.map(({ fullPath }) => fullPath)).toEqual(
      expect.arrayContaining(["/teach", "/teach/homework", "/teach/homework/review"]),
    );
    for (const { def, parents, fullPath } of teach) expect(accessOf([...parents, def]), fullPath).toBe("teacher");
  });

  it("takes the strictest access along a chain", () => {
    const def = (access?: "public" | "user" | "teacher") => ({ id: "x", path: "x", page: "x", title: "x", access });
    expect(accessOf([def(), def("public")])).toBe("public");
    expect(accessOf([def("user"), def()])).toBe("user");
    expect(accessOf([def("teacher"), def("user")])).toBe("teacher");
    expect(accessOf([def("user"), def("teacher")])).toBe("teacher");
  });
});

describe("parameter rules", () => {
  it("ids are positive integers within int4", () => {
    for (const ok of ["1", "12", "2147483647"]) expect(paramRules.id.safeParse(ok).success, ok).toBe(true);
    for (const bad of ["0", "012", "-1", "1.5", "abc", "2147483648", "", "1e3"])
      expect(paramRules.id.safeParse(bad).success, bad).toBe(false);
  });
  it("group numbers and tokens have their formats", () => {
    expect(paramRules.groupNo.safeParse("GB26112200000001").success).toBe(true);
    expect(paramRules.groupNo.safeParse("GB2611220000001").success).toBe(false);
    expect(paramRules.token.safeParse("spring-2026").success).toBe(true);
    expect(paramRules.token.safeParse("a<b>cdef").success).toBe(false);
  });
});
