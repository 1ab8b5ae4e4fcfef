import { describe, expect, it } from "vitest";
import { apiListPath, listHref, listSearch, pageHref, parseListQuery, pendingListQuery } from "./list-query";

const parse = (search: string) => parseListQuery(new URLSearchParams(search));

describe("the course list's address", () => {
  it("reads the known parameters, ignores the rest, and fills in the defaults", async () => {
    expect(await parse("category=kaishu&utm_source=wx&pageSize=48")).toEqual({
      ok: true,
      query: { category: "kaishu", sort: "popular", page: 1 },
    });
    expect(await parse("")).toEqual({ ok: true, query: { sort: "popular", page: 1 } });
  });

  it("says in Chinese what is wrong with a bad value", async () => {
    expect(await parse("kind=vip")).toEqual({ ok: false, message: "课程类型只能是录播课、直播课或训练营" });
    expect(await parse("page=0")).toEqual({ ok: false, message: "页码必须是正整数" });
  });

  it("writes one address per list: fixed order, no defaults", () => {
    expect(listSearch({ page: 2, sort: "newest", category: "lishu", price: "free" })).toBe(
      "?category=lishu&price=free&sort=newest&page=2",
    );
    expect(listSearch({ sort: "popular", page: 1 })).toBe("");
  });

  it("changes one filter and goes back to the first page", () => {
    const query = { category: "kaishu" as const, sort: "price_asc" as const, page: 3 };
    expect(listHref(query, "price", "paid")).toBe("/product/list?category=kaishu&price=paid&sort=price_asc");
    expect(listHref(query, "category", undefined)).toBe("/product/list?sort=price_asc");
    expect(pageHref(query, 4)).toBe("/product/list?category=kaishu&sort=price_asc&page=4");
    expect(pageHref(query, 1)).toBe("/product/list?category=kaishu&sort=price_asc");
    expect(apiListPath(query, 4)).toBe("/api/courses?category=kaishu&sort=price_asc&page=4&pageSize=12");
    expect(apiListPath({ sort: "popular", page: 1 }, 1)).toBe("/api/courses?pageSize=12");
  });

  it("reads the list a navigation is loading, so a second choice builds on the first", () => {
    const loading = pendingListQuery("?category=xiezuo&kind=live&sort=price_asc");
    expect(loading).toEqual({ category: "xiezuo", kind: "live", sort: "price_asc", page: 1 });
    expect(listHref(loading, "price", "free")).toBe(
      "/product/list?category=xiezuo&kind=live&price=free&sort=price_asc",
    );
    // Unknown values are left out rather than carried into the next link.
    expect(pendingListQuery("?kind=vip&level=beginner&page=0&sort=cheapest&utm_source=wx")).toEqual({
      level: "beginner",
      sort: "popular",
      page: 1,
    });
    expect(pendingListQuery("?page=3")).toEqual({ sort: "popular", page: 3 });
  });
});
