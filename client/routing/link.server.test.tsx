import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type To } from "react-router-dom";
import { describe, expect, it } from "vitest";
import { BrowserLink, isPlainPath, Link, ServerLink } from "./link";

/** Addresses as the pages write them, and the awkward ones the router rewrites. */
const ADDRESSES: To[] = [
  "/",
  "/course/7",
  "/course/",
  "/search?keyword=楷书&tab=course",
  "/about#teachers",
  "/my/order?status=unpaid#list",
  "/search?",
  "/about#",
  "/a/./b",
  "/a/../b",
  "/a/..",
  "/a//b",
  "/a\\b",
  "about",
  "../about",
  ".",
  "?page=2",
  "#top",
  { pathname: "/course/7", search: "?from=list" },
  "https://example.org/x",
  "mailto:hi@example.org",
  "//cdn.example.org/a.js",
];

async function hrefsAt(url: string, LinkComponent: typeof ServerLink): Promise<(string | null)[]> {
  const routes = [
    {
      path: "/my/*",
      element: (
        <nav>
          {ADDRESSES.map((to, i) => (
            <LinkComponent key={i} to={to}>
              {i}
            </LinkComponent>
          ))}
        </nav>
      ),
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${url}`));
  if (context instanceof Response) throw new Error("unexpected response");
  const html = renderToString(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />,
  );
  return [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));
}

describe("the server's link", () => {
  it("is the one a page renders on the server", () => {
    expect(Link).toBe(ServerLink);
  });

  it("writes the same address the browser's link (the router's resolution) does, for every kind of `to`", async () => {
    for (const url of ["/my/homework/3", "/my/", "/my/order?status=paid"]) {
      const server = await hrefsAt(url, ServerLink);
      expect(server, url).toHaveLength(ADDRESSES.length);
      expect(server, url).toEqual(await hrefsAt(url, BrowserLink));
    }
  });

  it("leaves to the router only the addresses it would change", () => {
    // The first six are the addresses as pages write them; the rest the router rewrites or resolves.
    expect(ADDRESSES.filter(isPlainPath)).toEqual(ADDRESSES.slice(0, 6));
  });
});
