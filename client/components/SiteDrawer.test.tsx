// @vitest-environment happy-dom
import { act, createRef } from "react";
import { createRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SiteDrawer } from "./SiteDrawer";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLElement;
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

function drawer(open: boolean, onClose: () => void, button = createRef<HTMLButtonElement>()) {
  return (
    <MemoryRouter>
      <button ref={button} type="button">
        菜单
      </button>
      <SiteDrawer open={open} onClose={onClose} returnFocusTo={button}>
        <a href="/books">书籍</a>
        <a href="/live">直播</a>
      </SiteDrawer>
    </MemoryRouter>
  );
}

describe("SiteDrawer", () => {
  it("renders closed on the server: no open class, the same markup as in the browser", () => {
    const html = renderToString(drawer(false, () => {}));
    expect(html).toContain('id="site-drawer"');
    expect(html).toContain('class="site-drawer"');
    expect(html).not.toContain("is-open");
  });

  it("is a modal dialog only while open (a page's shortcuts wait only for an open one)", () => {
    act(() => root.render(drawer(false, () => {})));
    expect(document.querySelector("[role=dialog][aria-modal=true]")).toBeNull();
    act(() => root.render(drawer(true, () => {})));
    expect(document.querySelector("[role=dialog][aria-modal=true]")).not.toBeNull();
    act(() => root.render(drawer(false, () => {})));
    expect(document.querySelector("[role=dialog][aria-modal=true]")).toBeNull();
  });

  it("opened when first mounted, it stays open (mounting is no navigation)", () => {
    const onClose = vi.fn();
    act(() => root.render(drawer(true, onClose)));
    expect(onClose).not.toHaveBeenCalled();
  });

  it("closes on Escape and on a chosen link; focus goes back to the menu button", () => {
    const onClose = vi.fn();
    const button = createRef<HTMLButtonElement>();
    act(() => root.render(drawer(false, onClose, button)));
    act(() => root.render(drawer(true, onClose, button)));
    expect(container.querySelector(".site-drawer")!.classList.contains("is-open")).toBe(true);
    expect(document.activeElement).toBe(container.querySelector(".site-drawer__panel"));

    act(() => {
      document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    });
    expect(onClose).toHaveBeenCalledTimes(1);

    act(() => container.querySelector<HTMLAnchorElement>('a[href="/live"]')!.click());
    expect(onClose).toHaveBeenCalledTimes(2);

    act(() => root.render(drawer(false, onClose, button)));
    expect(document.activeElement).toBe(button.current);
  });

  it("keeps Tab inside while open", () => {
    act(() => root.render(drawer(true, () => {})));
    const last = container.querySelector<HTMLAnchorElement>('a[href="/live"]')!;
    last.focus();
    act(() => {
      last.dispatchEvent(new KeyboardEvent("keydown", { key: "Tab", bubbles: true }));
    });
    // The first focusable in the panel: its close button.
    expect(document.activeElement).toBe(container.querySelector(".site-drawer__close"));
    act(() => {
      document.activeElement!.dispatchEvent(
        new KeyboardEvent("keydown", { key: "Tab", shiftKey: true, bubbles: true }),
      );
    });
    expect(document.activeElement).toBe(last);
  });

  it("closes on the backdrop", () => {
    const onClose = vi.fn();
    act(() => root.render(drawer(true, onClose)));
    onClose.mockClear();
    act(() => container.querySelector<HTMLElement>(".site-drawer__backdrop")!.click());
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
