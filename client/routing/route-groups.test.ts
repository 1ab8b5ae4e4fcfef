import { matchRoutes } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { myRoute } from "../../shared/route-groups/my";
import { entryRouteTable, routeTable, walkRoutes } from "../../shared/routes";
import { entryPageImporters, groupFileOf, initialRoutes } from "./entry-routes";
import type { NavEnv } from "./nav-context";
import { byPage, groupModuleKey, groupOf, moduleKeysOf, ROUTE_GROUPS } from "./routes";

const envOf = () => ({}) as NavEnv;
const idsAt = (routes: Parameters<typeof matchRoutes>[0], path: string) =>
  matchRoutes(routes, path)?.map((m) => m.route.id) ?? null;

describe("route groups", () => {
  it("the whole table is the entry's pages plus one group per top-level path of ROUTE_GROUPS", () => {
    const outside = routeTable.filter((def) => !entryRouteTable.includes(def));
    expect(outside.map((def) => def.path).sort()).toEqual(Object.keys(ROUTE_GROUPS).sort());
    for (const def of outside) expect(groupOf(def)).toBe(ROUTE_GROUPS[def.path]);
    for (const def of entryRouteTable) expect(groupOf(def)).toBeUndefined();
  });

  it("a path belongs to the group of its first segment", () => {
    expect(groupFileOf("/my/order")).toBe("my");
    expect(groupFileOf("/admin")).toBe("admin");
    expect(groupFileOf("/teach/homework/review")).toBe("teach");
    expect(groupFileOf("/__test/fast")).toBe("fixtures");
    expect(groupFileOf("/about")).toBeUndefined();
    expect(groupFileOf("/")).toBeUndefined();
  });

  it("a group's page preloads its group's module before its pages", () => {
    const my = routeTable.find((def) => def.id === "my")!;
    const order = my.children!.find((def) => def.id === "my.order")!;
    expect(moduleKeysOf([my, order])).toEqual([
      groupModuleKey("my"),
      "client/features/my/MyLayout.page.tsx",
      "client/features/my/Order.page.tsx",
    ]);
    const about = routeTable.find((def) => def.id === "about")!;
    expect(moduleKeysOf([about])).toEqual(["client/features/about/About.page.tsx"]);
  });

  it("hydrates a group's page with its group, an entry page without any", async () => {
    const admin = await initialRoutes(envOf, "/admin/orders", {});
    expect([...admin.groups]).toEqual(["admin"]);
    expect(idsAt(admin.routes, "/admin/orders")).toEqual(["root", "layout.default", "admin", "admin.orders"]);

    // /my/logout is one of the entry's pages: nothing more is loaded for it.
    const logout = await initialRoutes(envOf, "/my/logout", {});
    expect([...logout.groups]).toEqual([]);
    expect(idsAt(logout.routes, "/my/logout")).toEqual(["root", "layout.clean", "my.logout"]);

    const about = await initialRoutes(envOf, "/about", {});
    expect([...about.groups]).toEqual([]);
    expect(idsAt(about.routes, "/admin/orders")).toBeNull();
  });

  it("imports the first page by the address the server gave, the others through the entry's page map", async () => {
    const about = "client/features/about/About.page.tsx";
    const pages = entryPageImporters({ [about]: "data:text/javascript,export default 'served'" });
    expect((await pages["about/About"]!()).default).toBe("served");
    // Every entry page has an importer; one the server did not name comes from ./entry-pages.
    for (const def of entryRouteTable) expect(pages[def.page], def.page).toBeTypeOf("function");
    const guide = await pages["guide/Guide"]!();
    expect(guide.default).toBeTypeOf("function");
  });

  it("hydrates a group's page by the addresses the server gave; its other pages come through the group's page map", async () => {
    const order = "client/features/my/Order.page.tsx";
    const my = await initialRoutes(envOf, "/my/order", { [order]: "data:text/javascript,export default 'served'" });
    expect([...my.groups]).toEqual(["my"]);
    const matched = matchRoutes(my.routes, "/my/order")!;
    const page = matched.find((m) => m.route.id === "my.order")!.route;
    expect(((await (page.lazy as () => Promise<{ Component: unknown }>)()) as { Component: unknown }).Component).toBe(
      "served",
    );
    const security = matchRoutes(my.routes, "/my/security")!.find((m) => m.route.id === "my.security")!.route;
    const loaded = await (security.lazy as () => Promise<{ Component: unknown }>)();
    expect(loaded.Component).toBeTypeOf("function");
    // The page map itself: every page of the group, by page name.
    const pages = byPage((await import("./group-pages/my")).pages);
    for (const { def } of walkRoutes([myRoute])) expect(pages[def.page], def.page).toBeTypeOf("function");
  });
});
