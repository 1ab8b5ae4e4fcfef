// @vitest-environment happy-dom
import { act } from "react";
import { createRoot, hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FETCH_MIN_DURATION_MS } from "../../shared/constants";
import {
  FetchController,
  type FetchState,
  FetchStateProvider,
  fetchStateErrorEntry,
  useFetchState,
} from "./fetch-state";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date("2024-05-01T08:00:00Z"));
});

afterEach(() => {
  vi.useRealTimers();
});

describe("FetchController", () => {
  it("starts pending with no data when nothing came from the server", () => {
    const c = new FetchController(() => 1);
    expect(c.getSnapshot()).toMatchObject({ pending: true, error: null, data: undefined });
  });

  it("starts settled with server data", () => {
    const c = new FetchController(() => 1, 200, { data: 42 });
    expect(c.getSnapshot()).toMatchObject({ pending: false, error: null, data: 42 });
  });

  it("shares one in-flight request between concurrent calls", async () => {
    const d = deferred<string>();
    const fetcher = vi.fn(() => d.promise);
    const c = new FetchController(fetcher);
    const first = c.fetch();
    const second = c.fetch();
    expect(second).toBe(first);
    expect(fetcher).toHaveBeenCalledTimes(1);
    d.resolve("书谱");
    await vi.advanceTimersByTimeAsync(FETCH_MIN_DURATION_MS);
    await first;
    expect(c.getSnapshot().data).toBe("书谱");
    // Once finished, the next call is a new request.
    void c.fetch();
    expect(fetcher).toHaveBeenCalledTimes(2);
  });

  it("stays pending for at least the minimum duration after a fast response", async () => {
    const c = new FetchController(() => Promise.resolve("快"), 200);
    const done = c.fetch();
    await vi.advanceTimersByTimeAsync(0);
    expect(c.getSnapshot().pending).toBe(true);
    await vi.advanceTimersByTimeAsync(199);
    expect(c.getSnapshot().pending).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(c.getSnapshot()).toMatchObject({ pending: false, data: "快" });
  });

  it("waits only the remainder when the response took part of the minimum", async () => {
    const d = deferred<number>();
    const c = new FetchController(() => d.promise, 200);
    void c.fetch();
    await vi.advanceTimersByTimeAsync(150);
    d.resolve(7);
    await vi.advanceTimersByTimeAsync(49);
    expect(c.getSnapshot().pending).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(c.getSnapshot()).toMatchObject({ pending: false, data: 7 });
  });

  it("adds no wait when the response was slower than the minimum", async () => {
    const d = deferred<number>();
    const c = new FetchController(() => d.promise, 200);
    void c.fetch();
    await vi.advanceTimersByTimeAsync(500);
    d.resolve(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(c.getSnapshot().pending).toBe(false);
    expect(c.getSnapshot().timestamp).toBe(Date.now());
  });

  it("normalises errors from statusCode, status, response.status or 500, without throwing", async () => {
    const cases: Array<[unknown, number, string]> = [
      [Object.assign(new Error("没有权限"), { statusCode: 403 }), 403, "没有权限"],
      [{ status: 404, message: "找不到课程" }, 404, "找不到课程"],
      [{ response: { status: 502 }, message: "网关错误" }, 502, "网关错误"],
      [new Error("崩了"), 500, "崩了"],
      ["纯文本错误", 500, "纯文本错误"],
    ];
    for (const [thrown, statusCode, message] of cases) {
      const c = new FetchController(() => Promise.reject(thrown), 0);
      await expect(c.fetch()).resolves.toBeUndefined();
      expect(c.getSnapshot().error).toEqual({ statusCode, message });
      expect(c.getSnapshot().pending).toBe(false);
    }
  });

  it("catches a fetcher that throws synchronously", async () => {
    const c = new FetchController<number>(() => {
      throw { statusCode: 401 };
    }, 0);
    await c.fetch();
    expect(c.getSnapshot().error?.statusCode).toBe(401);
  });

  it("clears the error when a refetch starts and keeps the last data on failure", async () => {
    let fail = false;
    const c = new FetchController(() => (fail ? Promise.reject(new Error("断网")) : Promise.resolve("旧数据")), 0);
    await c.fetch();
    fail = true;
    await c.fetch();
    expect(c.getSnapshot()).toMatchObject({ data: "旧数据", error: { message: "断网" } });
    fail = false;
    const again = c.fetch();
    expect(c.getSnapshot()).toMatchObject({ pending: true, error: null });
    await again;
  });

  it("notifies subscribers on each change", async () => {
    const c = new FetchController(() => 1, 0);
    const listener = vi.fn();
    const stop = c.subscribe(listener);
    await c.fetch();
    expect(listener).toHaveBeenCalledTimes(2);
    stop();
    await c.fetch();
    expect(listener).toHaveBeenCalledTimes(2);
  });
});

let seen: FetchState<string>[] = [];

function Course({ fetcher, onServer }: { fetcher: () => Promise<string>; onServer?: boolean }) {
  const state = useFetchState("course:1", fetcher, { onServer });
  seen.push(state);
  if (state.pending) return <p>加载中</p>;
  if (state.error) return <p>出错：{state.error.statusCode}</p>;
  return <p>{state.data}</p>;
}

describe("useFetchState", () => {
  let container: HTMLElement;
  let root: Root | undefined;

  beforeEach(() => {
    seen = [];
    container = document.createElement("div");
    document.body.append(container);
  });

  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    container.remove();
  });

  it("renders pending on the server without initial data and never calls the fetcher there", () => {
    const fetcher = vi.fn(() => Promise.resolve("x"));
    expect(renderToString(<Course fetcher={fetcher} />)).toBe("<p>加载中</p>");
    expect(fetcher).not.toHaveBeenCalled();
  });

  it("renders server data from the provider, as a Record or a Map", () => {
    const fetcher = vi.fn(() => Promise.resolve("x"));
    const fromRecord = renderToString(
      <FetchStateProvider value={{ "course:1": "兰亭序" }}>
        <Course fetcher={fetcher} />
      </FetchStateProvider>,
    );
    const fromMap = renderToString(
      <FetchStateProvider value={new Map([["course:1", "兰亭序"]])}>
        <Course fetcher={fetcher} />
      </FetchStateProvider>,
    );
    expect(fromRecord).toBe("<p>兰亭序</p>");
    expect(fromMap).toBe(fromRecord);
  });

  it("hydrates from server data without a refetch or a mismatch", async () => {
    const fetcher = vi.fn(() => Promise.resolve("新数据"));
    const app = (
      <FetchStateProvider value={{ "course:1": "兰亭序" }}>
        <Course fetcher={fetcher} />
      </FetchStateProvider>
    );
    container.innerHTML = renderToString(app);
    const recoverable = vi.fn();
    await act(async () => {
      root = hydrateRoot(container, app, { onRecoverableError: recoverable });
    });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(recoverable).not.toHaveBeenCalled();
    expect(fetcher).not.toHaveBeenCalled();
    expect(container.textContent).toBe("兰亭序");
    expect(seen.at(-1)?.pending).toBe(false);
  });

  it("reuses a server error entry", () => {
    const html = renderToString(
      <FetchStateProvider value={{ "course:1": fetchStateErrorEntry({ status: 404 }) }}>
        <Course fetcher={() => Promise.resolve("x")} />
      </FetchStateProvider>,
    );
    expect(html).toBe("<p>出错：<!-- -->404</p>");
  });

  it("ignores server data when onServer is false", async () => {
    const fetcher = vi.fn(() => Promise.resolve("浏览器取的"));
    await act(async () => {
      root = createRoot(container);
      root.render(
        <FetchStateProvider value={{ "course:1": "服务器的" }}>
          <Course fetcher={fetcher} onServer={false} />
        </FetchStateProvider>,
      );
    });
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(container.textContent).toBe("加载中");
    await act(() => vi.advanceTimersByTimeAsync(FETCH_MIN_DURATION_MS));
    expect(container.textContent).toBe("浏览器取的");
  });

  it("fetches in the browser after mount, pending for the minimum duration", async () => {
    const fetcher = vi.fn(() => Promise.resolve("书法入门"));
    await act(async () => {
      root = createRoot(container);
      root.render(<Course fetcher={fetcher} />);
    });
    expect(fetcher).toHaveBeenCalledTimes(1);
    expect(container.textContent).toBe("加载中");
    await act(() => vi.advanceTimersByTimeAsync(FETCH_MIN_DURATION_MS - 1));
    expect(container.textContent).toBe("加载中");
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(container.textContent).toBe("书法入门");
  });

  it("fetches a key again on a later mount: server data is for hydration only", async () => {
    const fetcher = vi.fn(() => Promise.resolve("新数据"));
    const withCourse = (show: boolean) => (
      <FetchStateProvider value={{ "course:1": "兰亭序" }}>{show && <Course fetcher={fetcher} />}</FetchStateProvider>
    );
    await act(async () => {
      root = createRoot(container);
      root.render(withCourse(true));
    });
    expect(fetcher).not.toHaveBeenCalled();
    await act(async () => root?.render(withCourse(false)));
    await act(async () => root?.render(withCourse(true)));
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it("refetch from the hook is deduplicated and updates the view", async () => {
    let n = 0;
    const fetcher = vi.fn(() => Promise.resolve(`第${++n}次`));
    await act(async () => {
      root = createRoot(container);
      root.render(<Course fetcher={fetcher} />);
    });
    await act(() => vi.advanceTimersByTimeAsync(FETCH_MIN_DURATION_MS));
    const { refetch } = seen.at(-1) as FetchState<string>;
    await act(async () => {
      void refetch();
      void refetch();
    });
    expect(fetcher).toHaveBeenCalledTimes(2);
    expect(container.textContent).toBe("加载中");
    await act(() => vi.advanceTimersByTimeAsync(FETCH_MIN_DURATION_MS));
    expect(container.textContent).toBe("第2次");
  });
});
