// @vitest-environment happy-dom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from "vitest";
import { type KeyboardActions, usePlayerKeyboard } from "./usePlayerKeyboard";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Harness(actions: KeyboardActions) {
  const onKeyDown = usePlayerKeyboard(actions);
  return (
    <div data-testid="player" tabIndex={0} onKeyDown={onKeyDown}>
      <video data-testid="video" tabIndex={0} />
      <button type="button">静音</button>
      <input type="range" aria-label="播放进度" />
      <input type="text" aria-label="笔记" />
    </div>
  );
}

let container: HTMLElement;
let root: Root;
let actions: { toggle: Mock<() => void>; seekBy: Mock<(seconds: number) => void>; closeMenu: Mock<() => void> };

function render(menuOpen = false) {
  act(() => root.render(<Harness {...actions} menuOpen={menuOpen} />));
}

/** Presses a key on an element; true when the player took it (the default was prevented). */
function press(target: Element, key: string, init: KeyboardEventInit = {}): boolean {
  const event = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...init });
  act(() => {
    target.dispatchEvent(event);
  });
  return event.defaultPrevented;
}

const get = (selector: string) => container.querySelector(selector)!;

beforeEach(() => {
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
  actions = { toggle: vi.fn(), seekBy: vi.fn(), closeMenu: vi.fn() };
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

describe("usePlayerKeyboard", () => {
  it("plays and pauses with the space bar, once per press, except on a focused button or field", () => {
    render();
    expect(press(get("video"), " ")).toBe(true);
    expect(actions.toggle).toHaveBeenCalledTimes(1);
    expect(press(get("button"), " ")).toBe(false);
    expect(press(get("input[type=range]"), " ")).toBe(false);
    expect(press(get("input[type=text]"), " ")).toBe(false);
    expect(actions.toggle).toHaveBeenCalledTimes(1);
  });

  it("jumps 5 s with the arrows, also on the seek bar, but not in a text field or with a modifier", () => {
    render();
    expect(press(get("video"), "ArrowRight")).toBe(true);
    expect(press(get("input[type=range]"), "ArrowLeft")).toBe(true);
    expect(actions.seekBy.mock.calls).toEqual([[5], [-5]]);
    expect(press(get("input[type=text]"), "ArrowLeft")).toBe(false);
    expect(press(get("video"), "ArrowRight", { ctrlKey: true })).toBe(false);
    expect(press(get("video"), "ArrowRight", { altKey: true })).toBe(false);
    expect(actions.seekBy).toHaveBeenCalledTimes(2);
  });

  it("answers the page itself when nothing has the focus, and stops when the player goes away", () => {
    render();
    expect(press(document.body, " ")).toBe(true);
    expect(press(document.body, "ArrowLeft")).toBe(true);
    expect(actions.toggle).toHaveBeenCalledTimes(1);
    expect(actions.seekBy.mock.calls).toEqual([[-5]]);
    act(() => root.unmount());
    root = createRoot(container);
    expect(press(document.body, " ")).toBe(false);
    expect(actions.toggle).toHaveBeenCalledTimes(1);
  });

  it("closes the speed menu with Esc only while it is open", () => {
    render(false);
    press(get("video"), "Escape");
    expect(actions.closeMenu).not.toHaveBeenCalled();
    render(true);
    press(get("button"), "Escape");
    expect(actions.closeMenu).toHaveBeenCalledTimes(1);
  });
});
