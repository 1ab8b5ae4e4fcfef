import { describe, expect, it } from "vitest";
import { isDevtoolsShortcut, isMobileUserAgent, wantsDebugConsole } from "./client-plugins";
import { shouldScrollToTop } from "./scroll";

const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  ...mods,
});

describe("route guards in the browser", () => {
  it("recognises the developer-tools shortcuts only", () => {
    expect(isDevtoolsShortcut(key("F12"))).toBe(true);
    expect(isDevtoolsShortcut(key("I", { ctrlKey: true, shiftKey: true }))).toBe(true);
    expect(isDevtoolsShortcut(key("j", { metaKey: true, shiftKey: true }))).toBe(true);
    expect(isDevtoolsShortcut(key("u", { ctrlKey: true }))).toBe(true);
    expect(isDevtoolsShortcut(key("c", { ctrlKey: true }))).toBe(false);
    expect(isDevtoolsShortcut(key("a"))).toBe(false);
  });
  it("loads the debug console only when asked for", () => {
    expect(wantsDebugConsole("?debug=1", "")).toBe(true);
    expect(wantsDebugConsole("", "a=1; debug=1")).toBe(true);
    expect(wantsDebugConsole("?debug=0", "nodebug=1")).toBe(false);
  });
  it("tells phones from tablets and desktops", () => {
    expect(isMobileUserAgent("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148")).toBe(true);
    expect(isMobileUserAgent("Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) Mobile/15E148")).toBe(false);
    expect(isMobileUserAgent("Mozilla/5.0 (X11; Linux x86_64) Chrome/156")).toBe(false);
  });
  it("scrolls to top for single pages unless they opt out; nested children keep the position", () => {
    const page = { id: "a", path: "a", page: "x", title: "a" };
    expect(shouldScrollToTop([page])).toBe(true);
    expect(shouldScrollToTop([{ ...page, scrollToTop: false }])).toBe(false);
    expect(shouldScrollToTop([page, { ...page, id: "b" }])).toBe(false);
    expect(shouldScrollToTop([page, { ...page, id: "b", scrollToTop: true }])).toBe(true);
  });
});
