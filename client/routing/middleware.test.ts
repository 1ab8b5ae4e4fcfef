import { describe, expect, it } from "vitest";
import { isUnsupportedBrowser } from "../../server/browser-support";
import { middlewareOf, routeTable, walkRoutes } from "../../shared/routes";
import { loginRedirectPath, middlewareRegistry } from "./middleware";

describe("route table middleware", () => {
  it("names only registered middleware (an unknown name would be a 500 in production)", () => {
    const unknown = walkRoutes(routeTable).flatMap(({ def }) =>
      middlewareOf(def)
        .filter((name) => !(name in middlewareRegistry))
        .map((name) => `${def.id}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });
});

describe("auth redirect", () => {
  it("sends to the home page's login dialog with the way back", () => {
    expect(loginRedirectPath(new URL("http://x/my/order?tab=2"))).toBe("/?login=1&redirect=%2Fmy%2Forder%3Ftab%3D2");
  });
});

describe("browser detection", () => {
  it("refuses IE and very old engines, lets modern browsers and crawlers through", () => {
    expect(isUnsupportedBrowser("Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko")).toBe(true);
    expect(
      isUnsupportedBrowser(
        "Mozilla/5.0 (Windows NT 6.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/49.0.2623.112 Safari/537.36",
      ),
    ).toBe(true);
    expect(
      isUnsupportedBrowser(
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
      ),
    ).toBe(false);
    expect(
      isUnsupportedBrowser(
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15",
      ),
    ).toBe(false);
    expect(
      isUnsupportedBrowser("Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)"),
    ).toBe(false);
    expect(isUnsupportedBrowser("")).toBe(false);
  });
});
