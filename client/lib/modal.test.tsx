// @vitest-environment happy-dom
import { act, useState } from "react";
import { createRoot, hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MODAL_Z_BASE } from "../../shared/constants";
import {
  lockBodyScroll,
  MODAL_TRANSITION_FALLBACK_MS,
  Modal,
  type ModalEvent,
  type ModalPhase,
  ModalStack,
  modalStack,
  modalTransition,
  modalZIndex,
  showsOverlay,
  stackZIndex,
  topOpenModal,
  trapFocusIndex,
  waitForTransition,
} from "./modal";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe("modalTransition", () => {
  const table: Array<[ModalPhase, ModalEvent, ModalPhase]> = [
    ["leave", "open", "entering"],
    ["entering", "transitionEnd", "enter"],
    ["enter", "close", "leaving"],
    ["leaving", "transitionEnd", "leave"],
    // Reopened while fading out, closed while fading in.
    ["leaving", "open", "entering"],
    ["entering", "close", "leaving"],
    // Nothing to do.
    ["enter", "open", "enter"],
    ["leave", "close", "leave"],
    ["enter", "transitionEnd", "enter"],
    ["leave", "transitionEnd", "leave"],
  ];
  it.each(table)("%s + %s → %s", (from, event, to) => {
    expect(modalTransition(from, event)).toBe(to);
  });
});

describe("modal stack", () => {
  it("gives a stack of 3 the z-indexes 1000, 1002, 1004", () => {
    expect([0, 1, 2].map(modalZIndex)).toEqual([1000, 1002, 1004]);
    const stack = new ModalStack();
    stack.add("a");
    stack.add("b");
    stack.add("c");
    const entries = stack.getSnapshot();
    expect(["a", "b", "c"].map((id) => stackZIndex(entries, id))).toEqual([
      MODAL_Z_BASE,
      MODAL_Z_BASE + 2,
      MODAL_Z_BASE + 4,
    ]);
  });

  it("shows the overlay under the top modal only", () => {
    const stack = new ModalStack();
    stack.add("a");
    stack.add("b");
    stack.add("c");
    const entries = stack.getSnapshot();
    expect(["a", "b", "c"].map((id) => showsOverlay(entries, id))).toEqual([false, false, true]);
  });

  it("while the top one fades out, the open one below takes Esc and shows its overlay", () => {
    const stack = new ModalStack();
    stack.add("a");
    stack.add("b");
    stack.setClosing("b", true);
    const entries = stack.getSnapshot();
    expect(topOpenModal(entries)).toBe("a");
    expect(showsOverlay(entries, "a")).toBe(true);
    expect(showsOverlay(entries, "b")).toBe(true);
    stack.remove("b");
    expect(stack.size).toBe(1);
    expect(stackZIndex(stack.getSnapshot(), "a")).toBe(1000);
  });

  it("moves up when a modal below goes away", () => {
    const stack = new ModalStack();
    stack.add("a");
    stack.add("b");
    stack.remove("a");
    expect(stackZIndex(stack.getSnapshot(), "b")).toBe(1000);
  });

  it("notifies only on real changes", () => {
    const stack = new ModalStack();
    const listener = vi.fn();
    stack.subscribe(listener);
    stack.add("a");
    stack.add("a");
    stack.setClosing("a", false);
    stack.remove("x");
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe("trapFocusIndex", () => {
  it("wraps Tab from the last to the first and Shift+Tab from the first to the last", () => {
    expect(trapFocusIndex(3, 2, false)).toBe(0);
    expect(trapFocusIndex(3, 0, true)).toBe(2);
  });
  it("lets the browser move inside the dialog", () => {
    expect(trapFocusIndex(3, 0, false)).toBeNull();
    expect(trapFocusIndex(3, 2, true)).toBeNull();
  });
  it("from the dialog itself goes to the first or the last", () => {
    expect(trapFocusIndex(3, -1, false)).toBe(0);
    expect(trapFocusIndex(3, -1, true)).toBe(2);
  });
  it("keeps focus on the dialog when nothing inside can take it", () => {
    expect(trapFocusIndex(0, -1, false)).toBe(-1);
  });
});

describe("waitForTransition", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("finishes on the element's own animationend, once", () => {
    const el = document.createElement("div");
    const done = vi.fn();
    waitForTransition(el, done);
    el.dispatchEvent(new Event("animationend"));
    vi.advanceTimersByTime(1000);
    el.dispatchEvent(new Event("transitionend"));
    expect(done).toHaveBeenCalledTimes(1);
  });

  it("ignores a child's bubbling transitionend", () => {
    const el = document.createElement("div");
    const child = document.createElement("span");
    el.append(child);
    const done = vi.fn();
    waitForTransition(el, done);
    child.dispatchEvent(new Event("transitionend", { bubbles: true }));
    expect(done).not.toHaveBeenCalled();
  });

  it("falls back to a timeout when no animation runs", () => {
    const el = document.createElement("div");
    const done = vi.fn();
    waitForTransition(el, done);
    vi.advanceTimersByTime(MODAL_TRANSITION_FALLBACK_MS - 1);
    expect(done).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(done).toHaveBeenCalledTimes(1);
  });

  it("does nothing once cancelled", () => {
    const el = document.createElement("div");
    const done = vi.fn();
    const cancel = waitForTransition(el, done);
    cancel();
    el.dispatchEvent(new Event("transitionend"));
    vi.advanceTimersByTime(1000);
    expect(done).not.toHaveBeenCalled();
  });
});

function setScrollbar(width: number) {
  Object.defineProperty(window, "innerWidth", { configurable: true, value: 1024 });
  Object.defineProperty(document.documentElement, "clientWidth", { configurable: true, value: 1024 - width });
}

describe("lockBodyScroll", () => {
  afterEach(() => {
    document.body.removeAttribute("style");
  });

  it("hides overflow and pads the body by the scrollbar width until the last lock is released", () => {
    setScrollbar(15);
    document.body.style.paddingRight = "4px";
    const first = lockBodyScroll();
    const second = lockBodyScroll();
    expect(document.body.style.overflow).toBe("hidden");
    expect(document.body.style.paddingRight).toBe("19px");
    first();
    first();
    expect(document.body.style.overflow).toBe("hidden");
    second();
    expect(document.body.style.overflow).toBe("");
    expect(document.body.style.paddingRight).toBe("4px");
  });

  it("adds no padding when the page has no scrollbar", () => {
    setScrollbar(0);
    const release = lockBodyScroll();
    expect(document.body.style.paddingRight).toBe("");
    release();
  });
});

interface Spec {
  id: string;
  open: boolean;
}

function Stack({ specs, onClose }: { specs: Spec[]; onClose: (id: string) => void }) {
  return (
    <>
      {specs.map((s) => (
        <Modal key={s.id} open={s.open} onClose={() => onClose(s.id)} title={`弹窗${s.id}`} className={`m-${s.id}`}>
          <button type="button" className={`first-${s.id}`}>
            确定
          </button>
          <a href="#x" className={`last-${s.id}`}>
            了解更多
          </a>
        </Modal>
      ))}
    </>
  );
}

/** Closes itself through its own state, as a page does. */
function ClosablePage() {
  const [open, setOpen] = useState(true);
  return <Stack specs={[{ id: "a", open }]} onClose={() => setOpen(false)} />;
}

describe("<Modal>", () => {
  let container: HTMLElement;
  let root: Root | undefined;

  beforeEach(() => {
    vi.useFakeTimers();
    setScrollbar(15);
    container = document.createElement("div");
    document.body.append(container);
  });

  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    container.remove();
    document.body.removeAttribute("style");
    vi.useRealTimers();
  });

  const modalRoot = (id: string) => document.querySelector(`.m-${id}`)?.closest<HTMLElement>(".modal") ?? null;
  const render = async (node: React.ReactNode) => {
    await act(async () => {
      root ??= createRoot(container);
      root.render(node);
    });
  };
  const key = (k: string, init: KeyboardEventInit = {}) =>
    act(() => {
      (document.activeElement ?? document.body).dispatchEvent(
        new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true, ...init }),
      );
    });

  it("renders nothing on the server, and hydrates without a mismatch", async () => {
    const el = (
      <div>
        <Modal open onClose={() => {}} title="提示">
          内容
        </Modal>
      </div>
    );
    const html = renderToString(el);
    expect(html).toBe("<div></div>");
    container.innerHTML = html;
    const recoverable = vi.fn();
    await act(async () => {
      root = hydrateRoot(container, el, { onRecoverableError: recoverable });
    });
    expect(recoverable).not.toHaveBeenCalled();
    expect(document.querySelector('[role="dialog"]')).not.toBeNull();
  });

  it("open when the page hydrates, it still finishes entering", async () => {
    const el = (
      <Modal open onClose={() => {}} title="提示" className="m-h">
        内容
      </Modal>
    );
    container.innerHTML = renderToString(<div>{el}</div>);
    await act(async () => {
      root = hydrateRoot(container, <div>{el}</div>);
    });
    expect(modalRoot("h")?.dataset.state).toBe("entering");
    await act(() => vi.advanceTimersByTimeAsync(MODAL_TRANSITION_FALLBACK_MS));
    expect(modalRoot("h")?.dataset.state).toBe("enter");
  });

  it("goes entering → enter → leaving → leave (unmounted)", async () => {
    const onClose = vi.fn();
    await render(<Stack specs={[{ id: "a", open: true }]} onClose={onClose} />);
    expect(modalRoot("a")?.dataset.state).toBe("entering");
    expect(modalRoot("a")?.parentElement).toBe(document.body);
    await act(() => vi.advanceTimersByTimeAsync(MODAL_TRANSITION_FALLBACK_MS));
    expect(modalRoot("a")?.dataset.state).toBe("enter");
    await render(<Stack specs={[{ id: "a", open: false }]} onClose={onClose} />);
    expect(modalRoot("a")?.dataset.state).toBe("leaving");
    await act(async () => modalRoot("a")?.dispatchEvent(new Event("animationend")));
    expect(modalRoot("a")).toBeNull();
    expect(modalStack.size).toBe(0);
  });

  it("stacks three at 1000, 1002, 1004 with the overlay under the top only", async () => {
    const specs = ["a", "b", "c"].map((id) => ({ id, open: true }));
    await render(<Stack specs={specs} onClose={() => {}} />);
    expect(["a", "b", "c"].map((id) => modalRoot(id)?.style.zIndex)).toEqual(["1000", "1002", "1004"]);
    expect(["a", "b", "c"].map((id) => modalRoot(id)?.querySelector(".modal__overlay") !== null)).toEqual([
      false,
      false,
      true,
    ]);
  });

  it("Esc closes only the top modal", async () => {
    const closed: string[] = [];
    let specs = ["a", "b", "c"].map((id) => ({ id, open: true }));
    await render(<Stack specs={specs} onClose={(id) => closed.push(id)} />);
    key("Escape");
    expect(closed).toEqual(["c"]);
    specs = specs.map((s) => (s.id === "c" ? { ...s, open: false } : s));
    await render(<Stack specs={specs} onClose={(id) => closed.push(id)} />);
    key("Escape");
    expect(closed).toEqual(["c", "b"]);
  });

  it("closes on mousedown and mouseup outside the dialog, not on a drag out of it", async () => {
    const onClose = vi.fn();
    await render(<Stack specs={[{ id: "a", open: true }]} onClose={onClose} />);
    const backdrop = modalRoot("a")?.querySelector(".modal__container") as HTMLElement;
    const dialog = modalRoot("a")?.querySelector('[role="dialog"]') as HTMLElement;
    act(() => {
      dialog.dispatchEvent(new MouseEvent("mousedown", { bubbles: true }));
      backdrop.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
    });
    expect(onClose).not.toHaveBeenCalled();
    act(() => {
      backdrop.dispatchEvent(new MouseEvent("mousedown", { bubbles: true }));
      backdrop.dispatchEvent(new MouseEvent("mouseup", { bubbles: true }));
    });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it("is labelled by its title", async () => {
    await render(<Stack specs={[{ id: "a", open: true }]} onClose={() => {}} />);
    const dialog = modalRoot("a")?.querySelector('[role="dialog"]') as HTMLElement;
    expect(dialog.getAttribute("aria-modal")).toBe("true");
    const title = document.getElementById(dialog.getAttribute("aria-labelledby") ?? "");
    expect(title?.textContent).toBe("弹窗a");
  });

  it("moves focus in, traps Tab, and gives focus back on close", async () => {
    const opener = document.createElement("button");
    document.body.append(opener);
    opener.focus();
    await render(<ClosablePage />);
    const dialog = modalRoot("a")?.querySelector('[role="dialog"]') as HTMLElement;
    expect(document.activeElement).toBe(dialog);

    const close = dialog.querySelector(".modal__close") as HTMLElement;
    const last = dialog.querySelector(".last-a") as HTMLElement;
    key("Tab");
    expect(document.activeElement).toBe(close);
    last.focus();
    key("Tab");
    expect(document.activeElement).toBe(close);
    key("Tab", { shiftKey: true });
    expect(document.activeElement).toBe(last);

    key("Escape");
    expect(document.activeElement).toBe(opener);
    opener.remove();
  });

  it("gives focus back to the modal below when a stacked one closes", async () => {
    await render(<Stack specs={[{ id: "a", open: true }]} onClose={() => {}} />);
    const inA = document.querySelector(".first-a") as HTMLElement;
    inA.focus();
    await render(
      <Stack
        specs={[
          { id: "a", open: true },
          { id: "b", open: true },
        ]}
        onClose={() => {}}
      />,
    );
    expect(modalRoot("b")?.contains(document.activeElement)).toBe(true);
    await render(
      <Stack
        specs={[
          { id: "a", open: true },
          { id: "b", open: false },
        ]}
        onClose={() => {}}
      />,
    );
    expect(document.activeElement).toBe(inA);
  });

  it("gives focus back when removed while open", async () => {
    const opener = document.createElement("button");
    document.body.append(opener);
    opener.focus();
    await render(<Stack specs={[{ id: "a", open: true }]} onClose={() => {}} />);
    expect(document.activeElement).not.toBe(opener);
    await render(<Stack specs={[]} onClose={() => {}} />);
    expect(document.activeElement).toBe(opener);
    expect(modalStack.size).toBe(0);
    opener.remove();
  });

  it("locks body scroll with the scrollbar gap while any modal is mounted", async () => {
    await render(
      <Stack
        specs={[
          { id: "a", open: true },
          { id: "b", open: true },
        ]}
        onClose={() => {}}
      />,
    );
    expect(document.body.style.overflow).toBe("hidden");
    expect(document.body.style.paddingRight).toBe("15px");
    await render(
      <Stack
        specs={[
          { id: "a", open: true },
          { id: "b", open: false },
        ]}
        onClose={() => {}}
      />,
    );
    await act(() => vi.advanceTimersByTimeAsync(MODAL_TRANSITION_FALLBACK_MS));
    expect(document.body.style.overflow).toBe("hidden");
    await render(
      <Stack
        specs={[
          { id: "a", open: false },
          { id: "b", open: false },
        ]}
        onClose={() => {}}
      />,
    );
    expect(document.body.style.overflow).toBe("hidden");
    await act(() => vi.advanceTimersByTimeAsync(MODAL_TRANSITION_FALLBACK_MS));
    expect(document.body.style.overflow).toBe("");
    expect(document.body.style.paddingRight).toBe("");
  });
});
