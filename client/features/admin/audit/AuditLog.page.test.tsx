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

describe("审计日志", () => {
  it("shows an API failure in a panel with 重试, and the retry loads the entries", async () => {
    const answers: Array<() => Promise<unknown>> = [
      () =>
        Promise.reject(
          new AjaxError(503, "Service Unavailable", { error: { code: "overloaded", message: "服务繁忙，请稍后再试" } }),
        ),
      () => Promise.resolve({ rows: [entry], total: 1, page: 1, pageSize: 20, pageCount: 1 }),
    ];
    const calls: string[] = [];
    const api = vi.fn(async (path: string, options: { schema: { parse: (v: unknown) => unknown } }) => {
      calls.push(path);
      return options.schema.parse(await answers[calls.length - 1]!());
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
      { initialEntries: ["/admin/audit?action=course"] },
    );
    act(() => root.render(<RouterProvider router={router} />));
    await settle();
    const alert = container.querySelector('[role="alert"]');
    expect(alert?.textContent).toContain("审计日志没有加载出来");
    expect(alert?.textContent).toContain("服务繁忙，请稍后再试");
    expect(container.textContent).not.toContain("页面出错");
    const retry = [...container.querySelectorAll("button")].find((b) => b.textContent === "重试");
    expect(retry).toBeDefined();
    act(() => retry!.click());
    await settle();
    expect(calls).toEqual(["/api/admin/audit?action=course", "/api/admin/audit?action=course"]);
    expect(container.querySelector('[role="alert"]')).toBeNull();
    expect(container.textContent).toContain("course.publish");
  });
});
