// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isTypingField, REVEAL_FALLBACK_MS, revealFocusedFields } from "./keyboard-reveal";

/** A visual viewport the test resizes, as the on-screen keyboard does. */
class FakeViewport extends EventTarget {
  offsetTop = 0;
  constructor(public height: number) {
    super();
  }
}

let viewport: FakeViewport;
let stop: () => void;

function field(html: string, top: number): HTMLElement {
  document.body.insertAdjacentHTML("beforeend", html);
  const el = document.body.lastElementChild as HTMLElement;
  el.getBoundingClientRect = () => ({ top, bottom: top + 40, left: 0, right: 300, width: 300, height: 40 }) as DOMRect;
  el.scrollIntoView = vi.fn();
  return el;
}

beforeEach(() => {
  vi.useFakeTimers();
  viewport = new FakeViewport(800);
  Object.defineProperty(window, "visualViewport", { value: viewport, configurable: true });
  stop = revealFocusedFields(window);
});
afterEach(() => {
  stop();
  document.body.innerHTML = "";
  vi.useRealTimers();
});

describe("the field being typed into stays above the on-screen keyboard", () => {
  it("scrolls the focused field into view when the keyboard shrinks the viewport over it", () => {
    const input = field('<input type="tel">', 600);
    input.focus();
    expect(input.scrollIntoView).not.toHaveBeenCalled();
    viewport.height = 420; // the keyboard covers everything below 420 px
    viewport.dispatchEvent(new Event("resize"));
    expect(input.scrollIntoView).toHaveBeenCalledWith({ block: "center", inline: "nearest" });
  });

  it("leaves a field alone that the keyboard does not cover", () => {
    const input = field("<textarea></textarea>", 100);
    input.focus();
    viewport.height = 420;
    viewport.dispatchEvent(new Event("resize"));
    vi.advanceTimersByTime(REVEAL_FALLBACK_MS);
    expect(input.scrollIntoView).not.toHaveBeenCalled();
  });

  it("checks once more without a resize (the keyboard was already open)", () => {
    viewport.height = 420;
    const input = field('<input type="email">', 600);
    input.focus();
    vi.advanceTimersByTime(REVEAL_FALLBACK_MS);
    expect(input.scrollIntoView).toHaveBeenCalledTimes(1);
  });

  it("does nothing for a field that has lost focus or opens no keyboard, nor once stopped", () => {
    const box = field('<input type="checkbox">', 600);
    box.focus();
    const input = field('<input type="text">', 600);
    input.focus();
    input.blur();
    viewport.height = 420;
    viewport.dispatchEvent(new Event("resize"));
    expect(box.scrollIntoView).not.toHaveBeenCalled();
    expect(input.scrollIntoView).not.toHaveBeenCalled();

    stop();
    input.focus();
    viewport.dispatchEvent(new Event("resize"));
    vi.advanceTimersByTime(REVEAL_FALLBACK_MS);
    expect(input.scrollIntoView).not.toHaveBeenCalled();
  });
});

describe("isTypingField", () => {
  it("is true for text inputs, textareas and selects only", () => {
    const make = (html: string) => {
      const div = document.createElement("div");
      div.innerHTML = html;
      return div.firstElementChild;
    };
    expect(isTypingField(make('<input type="search">'))).toBe(true);
    expect(isTypingField(make("<input>"))).toBe(true);
    expect(isTypingField(make("<select></select>"))).toBe(true);
    expect(isTypingField(make("<textarea></textarea>"))).toBe(true);
    expect(isTypingField(make('<input type="radio">'))).toBe(false);
    expect(isTypingField(make('<input type="file">'))).toBe(false);
    expect(isTypingField(make("<button></button>"))).toBe(false);
    expect(isTypingField(null)).toBe(false);
  });
});
