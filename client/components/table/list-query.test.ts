import { describe, expect, it } from "vitest";
import { listQuery } from "./list-query";

describe("a staff table's API query", () => {
  it("hands the API only the parameters it reads, empty ones left out", () => {
    const url = new URL("http://x/admin/orders?q=M1&state=&page=2&evil=1");
    expect(listQuery(url, ["q", "state", "page"])).toBe("?q=M1&page=2");
    expect(listQuery(new URL("http://x/admin/orders"), ["q"])).toBe("");
    expect(listQuery(new Request("http://x/admin/books?page=3&q=%E5%AD%97"), ["q", "page"])).toBe(
      "?q=%E5%AD%97&page=3",
    );
  });
});
