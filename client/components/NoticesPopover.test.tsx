// @vitest-environment happy-dom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NoticesPopover } from "./NoticesPopover";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const notices = {
  items: [
    {
      id: 3,
      kind: "security",
      title: "登录密码已修改",
      body: "其他设备已退出。",
      createdAt: "2026-05-01T02:00:00.000Z",
      read: false,
    },
    { id: 2, kind: "security", title: "已绑定邮箱", body: "", createdAt: "2026-04-30T16:30:00.000Z", read: false },
    {
      id: 1,
      kind: "security",
      title: "已开启登录设备保护",
      body: "",
      createdAt: "2026-04-01T00:00:00.000Z",
      read: true,
    },
  ],
  unread: 2,
};

let container: HTMLElement;
let root: Root;
let calls: Array<{ url: string; method: string; body: unknown }>;

function reply(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

beforeEach(() => {
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
  calls = [];
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.unstubAllGlobals();
});

async function open() {
  const details = container.querySelector("details")!;
  await act(async () => {
    details.open = true; // the browser then fires "toggle"
  });
  // Let the contract load, the fetches answer and their state updates settle (the panel stops
  // saying 正在加载), then a few more turns for the mark-as-read request.
  for (let i = 0; i < 200 && container.textContent?.includes("正在加载"); i++)
    await act(async () => await new Promise((r) => setTimeout(r, 5)));
  for (let i = 0; i < 5; i++) await act(async () => await new Promise((r) => setTimeout(r, 0)));
}

describe("NoticesPopover", () => {
  it("shows the unread badge, lists the notices when opened and marks the new ones read", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ url, method: init.method ?? "GET", body: init.body ? JSON.parse(String(init.body)) : undefined });
        return url === "/api/notices" ? reply(notices) : reply({ unread: 0 });
      }),
    );
    act(() => root.render(<NoticesPopover unread={2} />));
    expect(container.querySelector(".badge")?.textContent).toBe("2");
    expect(calls).toHaveLength(0); // nothing is fetched until the panel opens

    await open();
    const items = [...container.querySelectorAll(".notice-item")];
    expect(items.map((li) => li.querySelector(".notice-item__title")?.textContent)).toEqual([
      "未读：登录密码已修改",
      "未读：已绑定邮箱",
      "已开启登录设备保护",
    ]);
    // Beijing time, the same on the server and in every browser.
    expect(items[0]?.querySelector("time")?.textContent).toBe("2026-05-01 10:00");
    expect(calls[1]).toEqual({ url: "/api/notices/read", method: "POST", body: { ids: [3, 2] } });
    expect(container.querySelector(".badge")).toBeNull();
    expect(container.querySelector("summary")?.getAttribute("aria-label")).toBe("通知，0 条未读");
  });

  it("says when there is nothing, and offers a retry when loading fails", async () => {
    let fail = true;
    vi.stubGlobal(
      "fetch",
      vi.fn(async () =>
        fail ? reply({ error: { code: "internal", message: "x" } }, 500) : reply({ items: [], unread: 0 }),
      ),
    );
    act(() => root.render(<NoticesPopover unread={0} />));
    expect(container.querySelector(".badge")).toBeNull();
    await open();
    expect(container.querySelector('[role="alert"]')?.textContent).toContain("通知没能加载出来");
    fail = false;
    await act(async () => container.querySelector<HTMLButtonElement>('[role="alert"] button')!.click());
    for (let i = 0; i < 5; i++) await act(async () => await new Promise((r) => setTimeout(r, 0)));
    expect(container.textContent).toContain("暂无通知");
  });
});
