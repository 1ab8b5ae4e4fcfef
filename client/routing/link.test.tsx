// @vitest-environment happy-dom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { RouterProvider, createMemoryRouter, createStaticRouter, StaticRouterProvider } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GetForm } from "./get-form";
import { Link, NavLink, isActivePath } from "./link";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

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

function Links() {
  return (
    <nav>
      <Link to="/course/7" className="to-course" state={{ from: "list" }}>
        课程
      </Link>
      <Link to="../about">关于</Link>
      <Link to="https://example.org/x">外站</Link>
      <NavLink to="/my" className={({ isActive }) => `menu${isActive ? " is-active" : ""}`}>
        我的
      </NavLink>
      <NavLink to="/my/homework" end className={({ isActive }) => `menu${isActive ? " is-active" : ""}`}>
        作业
      </NavLink>
      <NavLink to="/" className="home">
        首页
      </NavLink>
    </nav>
  );
}

async function show(at: string) {
  const element = <Links />;
  const router = createMemoryRouter(
    [
      { path: "/", element },
      { path: "/my/*", element },
      { path: "/course/:id", element: <p>course</p> },
      { path: "/search", element: <Search /> },
      { path: "/admin/users", element: <Search /> },
    ],
    { initialEntries: [at] },
  );
  await act(async () => root.render(<RouterProvider router={router} />));
  return router;
}

const link = (text: string) => [...container.querySelectorAll("a")].find((a) => a.textContent === text)!;

function click(a: Element, init: MouseEventInit = {}) {
  const event = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0, ...init });
  act(() => void a.dispatchEvent(event));
  return event;
}

describe("Link", () => {
  it("renders the resolved address and navigates on the client, with its state", async () => {
    const router = await show("/my/homework/3");
    expect(link("课程").getAttribute("href")).toBe("/course/7");
    expect(link("课程").className).toBe("to-course");
    // Relative to the route (`/my/*`), as the router resolves it.
    expect(link("关于").getAttribute("href")).toBe("/about");
    const event = click(link("课程"));
    expect(event.defaultPrevented).toBe(true);
    expect(router.state.location.pathname).toBe("/course/7");
    expect(router.state.location.state).toEqual({ from: "list" });
  });

  it("leaves a modified or middle click, and another site's address, to the browser", async () => {
    const router = await show("/my");
    for (const init of [{ ctrlKey: true }, { metaKey: true }, { shiftKey: true }, { button: 1 }]) {
      expect(click(link("课程"), init).defaultPrevented, JSON.stringify(init)).toBe(false);
    }
    const away = link("外站");
    expect(away.getAttribute("href")).toBe("https://example.org/x");
    away.addEventListener("click", (e) => e.preventDefault(), { once: true }); // the test page stays
    click(away);
    expect(router.state.location.pathname).toBe("/my");
  });

  it("renders on the server as the router's own link did, without its discovery attribute", async () => {
    const routes = [{ path: "*", element: <Links /> }];
    const context = { ...(await import("react-router-dom")).createStaticHandler(routes) };
    const result = await context.query(new Request("http://x/my/homework"));
    if (result instanceof Response) throw new Error("unexpected response");
    const html = renderToString(
      <StaticRouterProvider router={createStaticRouter(context.dataRoutes, result)} context={result} hydrate={false} />,
    );
    container.innerHTML = html;
    expect(link("课程").outerHTML).toBe('<a class="to-course" href="/course/7">课程</a>');
    expect(link("外站").outerHTML).toBe('<a href="https://example.org/x">外站</a>');
    expect([
      link("作业").getAttribute("href"),
      link("作业").className,
      link("作业").getAttribute("aria-current"),
    ]).toEqual(["/my/homework", "menu is-active", "page"]);
    expect(html).not.toContain("data-discover");
  });
});

describe("NavLink", () => {
  it("is active on its page and below it, unless `end`; `/` only on the home page", async () => {
    await show("/my/homework/3");
    expect([link("我的").className, link("我的").getAttribute("aria-current")]).toEqual(["menu is-active", "page"]);
    expect([link("作业").className, link("作业").getAttribute("aria-current")]).toEqual(["menu", null]);
    expect(link("首页").getAttribute("aria-current")).toBeNull();
    click(link("首页"));
    expect(link("首页").getAttribute("aria-current")).toBe("page");
    expect(link("我的").getAttribute("aria-current")).toBeNull();
  });

  it("compares addresses as the router does", () => {
    expect(isActivePath("/my/Homework", "/my/homework", true)).toBe(true);
    expect(isActivePath("/my/homework/3", "/my/homework", false)).toBe(true);
    expect(isActivePath("/my/homework/3", "/my/homework", true)).toBe(false);
    expect(isActivePath("/my/homeworks", "/my/homework", false)).toBe(false);
    expect(isActivePath("/my/homework/", "/my/homework/", false)).toBe(true);
    expect(isActivePath("/about", "/", false)).toBe(false);
  });
});

function Search() {
  return (
    <>
      <GetForm action="/search" role="search">
        <input name="q" defaultValue="楷书" />
        <input type="hidden" name="tab" value="course" />
        <button type="submit">搜索</button>
      </GetForm>
      <GetForm aria-label="筛选">
        <select name="status" defaultValue="active">
          <option value="all">全部</option>
          <option value="active">启用</option>
        </select>
        <button type="submit" name="page" value="2">
          下一页
        </button>
      </GetForm>
    </>
  );
}

describe("GetForm", () => {
  it("sends its fields as the query of its page, on the client", async () => {
    const router = await show("/admin/users?status=all");
    const [search, filter] = [...container.querySelectorAll("form")];
    expect([search!.getAttribute("method"), search!.getAttribute("action")]).toEqual(["get", "/search"]);
    // Without `action` the browser sends it to the page it is on, as the router does.
    expect(filter!.hasAttribute("action")).toBe(false);
    const next = filter!.querySelector("button")!;
    await act(async () => filter!.requestSubmit(next));
    expect(router.state.location.pathname + router.state.location.search).toBe("/admin/users?status=active&page=2");
    const searchForm = container.querySelector("form")!;
    await act(async () => searchForm.requestSubmit(searchForm.querySelector("button")));
    expect(router.state.location.pathname + router.state.location.search).toBe(
      `/search?${new URLSearchParams({ q: "楷书", tab: "course" })}`,
    );
  });
});
