// @vitest-environment happy-dom
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { FilterBar, type Filter } from "./FilterBar";

const FILTERS: Filter[] = [
  { type: "search", name: "q", label: "搜索", placeholder: "订单号", maxLength: 100 },
  {
    type: "select",
    name: "status",
    label: "状态",
    options: [
      ["all", "全部"],
      ["on", "上架"],
    ],
    fallback: "all",
  },
  { type: "date", name: "from", label: "从" },
];

function bar(url: string) {
  const html = renderToString(
    <MemoryRouter initialEntries={[url]}>
      <FilterBar
        label="筛选订单"
        filters={FILTERS}
        fixed={{ view: "works" }}
        keep={["sort", "pageSize"]}
        resetTo="/admin/x"
      />
    </MemoryRouter>,
  );
  const form = new DOMParser().parseFromString(html, "text/html").querySelector("form");
  if (!form) throw new Error("no form");
  return form;
}

describe("the staff filter bar", () => {
  it("shows the URL's filters in its fields, keeps the sort and names its search form", () => {
    const form = bar("/admin/x?q=M1&from=2026-11-01&sort=id");
    expect(form.getAttribute("role")).toBe("search");
    expect(form.getAttribute("aria-label")).toBe("筛选订单");
    expect(form.querySelector<HTMLInputElement>('input[name="q"]')?.getAttribute("value")).toBe("M1");
    expect(form.querySelector('input[name="q"]')?.getAttribute("type")).toBe("search");
    expect(form.querySelector('input[name="from"]')?.getAttribute("value")).toBe("2026-11-01");
    // The select falls back to its default when the URL names none.
    expect(form.querySelector('select[name="status"] option[selected]')?.textContent).toBe("全部");
    const hidden = [...form.querySelectorAll('input[type="hidden"]')].map(
      (i) => `${i.getAttribute("name")}=${i.getAttribute("value")}`,
    );
    expect(hidden).toEqual(["view=works", "sort=id"]);
    expect(form.querySelector("a.desk-reset")?.getAttribute("href")).toBe("/admin/x");
  });

  it("offers no reset while the URL has no parameters", () => {
    const form = bar("/admin/x");
    expect(form.querySelector("a.desk-reset")).toBeNull();
    expect(form.querySelector('button[type="submit"]')?.textContent).toBe("筛选");
  });
});
