// @vitest-environment happy-dom
import { type ReactNode, act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { RouterProvider, createMemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AjaxError } from "../../../../shared/ajax";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import AuditLogPage, { loader } from "./AuditLog.page";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
vi.mock("../../../components/Page", () => ({
  Page: ({ children }: { children?: ReactNode }) => <main>{children}</main>,
}));

let container: HTMLDivElement;
let root: Root;
beforeEach(() => {
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

const entry = {
  id: 1,
  at: "2026-11-26T02:00:00.000Z",
  actorId: 2,
  actorName: "运营小墨",
  actorRole: "operator",
  action: "course.publish",
  targetType: "course",
  targetId: "9",
  before: { status: "draft" },
  after: { status: "published" },
  reason: null,
  ip: null,
};

const settle = async () => {
  for (let i = 0; i < 20; i += 1) await act(() => new Promise((r) => setTimeout(r, 5)));
};

const intact = { intact: true, count: 1, broken: null, fullCheckAt: "2026-11-26T02:05:00.000Z" };
const listOf = (rows: unknown[]) => ({ rows, total: rows.length, page: 1, pageSize: 20, pageCount: 1 });

/** Renders the page at `url`; `answer` gives each API path its reply (a function may reject). */
function renderAt(url: string, answer: (path: string, call: number) => Promise<unknown>) {
  const calls: string[] = [];
  const api = vi.fn(async (path: string, options: { schema: { parse: (v: unknown) => unknown } }) => {
    calls.push(path);
    return options.schema.parse(await answer(path, calls.filter((c) => c === path).length));
  });
  const router = createMemoryRouter(
    [
      {
        path: "/admin/audit",
        Component: AuditLogPage,
        loader: ({ request, params }) =>
          loader({ request, params, signal: request.signal, env: { api } } as unknown as PageLoaderArgs),
        ErrorBoundary: () => <p>页面出错</p>,
      },
    ],
    { initialEntries: [url] },
  );
  act(() => root.render(<RouterProvider router={router} />));
  return calls;
}

describe("审计日志", () => {
  it("shows an API failure in a panel with 重试, and the retry loads the entries", async () => {
    const calls = renderAt("/admin/audit?action=course", (path, call) => {
      if (path.startsWith("/api/admin/audit/chain")) return Promise.resolve(intact);
      return call === 1
        ? Promise.reject(
            new AjaxError(503, "Service Unavailable", {
              error: { code: "overloaded", message: "服务繁忙，请稍后再试" },
            }),
          )
        : Promise.resolve(listOf([entry]));
    });
    await settle();
    const alert = container.querySelector('[role="alert"]');
    expect(alert?.textContent).toContain("审计日志没有加载出来");
    expect(alert?.textContent).toContain("服务繁忙，请稍后再试");
    expect(container.textContent).not.toContain("页面出错");
    const retry = [...container.querySelectorAll("button")].find((b) => b.textContent === "重试");
    expect(retry).toBeDefined();
    act(() => retry!.click());
    await settle();
    expect(calls.filter((c) => !c.includes("/chain"))).toEqual([
      "/api/admin/audit?action=course",
      "/api/admin/audit?action=course",
    ]);
    expect(container.querySelector('[role="alert"]')).toBeNull();
    expect(container.textContent).toContain("course.publish");
  });

  it("says the chain is whole, with the count", async () => {
    const calls = renderAt("/admin/audit", (path) =>
      Promise.resolve(path === "/api/admin/audit/chain" ? { ...intact, count: 1280 } : listOf([entry])),
    );
    await settle();
    expect(calls).toContain("/api/admin/audit/chain");
    const status = container.querySelector(".audit-chain");
    expect(status?.getAttribute("role")).toBe("status");
    expect(status?.textContent).toContain("审计记录完整（共 1280 条）");
  });

  it("names the first altered record, and the record after deleted ones, as an alert", async () => {
    const broken = (problem: string, id: number | null) => ({
      intact: false,
      count: 40,
      broken: { id, at: "2026-11-26T02:00:00.000Z", action: "order.refund", problem },
      fullCheckAt: "2026-11-26T02:05:00.000Z",
    });
    for (const [problem, id, headline] of [
      ["altered", 17, "第 17 条记录被改动（2026-11-26 10:00，order.refund）"],
      ["unlinked", 18, "第 18 条记录之前的记录被删除或改动"],
      ["cut", 39, "第 39 条之后的记录被删除"],
    ] as const) {
      renderAt("/admin/audit", (path) =>
        Promise.resolve(path === "/api/admin/audit/chain" ? broken(problem, id) : listOf([entry])),
      );
      await settle();
      const alert = container.querySelector('.audit-chain[role="alert"]');
      expect(alert?.textContent).toContain(headline);
      expect(container.textContent).not.toContain("审计记录完整");
    }
  });

  it("still shows the entries when the chain check fails", async () => {
    renderAt("/admin/audit", (path) =>
      path === "/api/admin/audit/chain"
        ? Promise.reject(
            new AjaxError(500, "Internal Server Error", { error: { code: "internal", message: "出错了" } }),
          )
        : Promise.resolve(listOf([entry])),
    );
    await settle();
    expect(container.textContent).toContain("审计记录的完整性这次没有核对成功");
    expect(container.textContent).toContain("course.publish");
  });
});
