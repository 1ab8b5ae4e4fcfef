import { describe, expect, it } from "vitest";
import { afterLoginPath } from "./login-client";

const at = (url: string) => {
  const u = new URL(url, "http://site.test");
  return { pathname: u.pathname, search: u.search, hash: u.hash };
};

describe("afterLoginPath", () => {
  it("goes to a same-origin redirect", () => {
    expect(afterLoginPath(at("/?login=1&redirect=%2Fmy%2Forder"))).toBe("/my/order");
    expect(afterLoginPath(at("/?login=1&redirect=%2Fcourse%2F12%3Ftab%3D2"))).toBe("/course/12?tab=2");
  });

  it("stays on this page, without the dialog's parameters, when the redirect leaves the site", () => {
    expect(afterLoginPath(at("/about?login=1&redirect=%2F%2Fevil.example"))).toBe("/about");
    expect(afterLoginPath(at("/search?q=%E6%A5%B7&login=1&panel=bind&redirect=https%3A%2F%2Fevil.example"))).toBe(
      "/search?q=%E6%A5%B7",
    );
    expect(afterLoginPath(at("/books#list"))).toBe("/books#list");
  });
});
