// @vitest-environment happy-dom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { INFINITE_LIST } from "../../shared/constants";
import {
  createTrailingThrottle,
  InfiniteList,
  InfiniteListMachine,
  type InfiniteListState,
  type InfiniteLoadState,
  infiniteListReducer,
  infiniteStatusText,
  initialInfiniteListState,
  isWithinDistance,
} from "./infinite-list";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const texts = INFINITE_LIST.texts;

function state(partial: Partial<InfiniteListState>): InfiniteListState {
  return { ...initialInfiniteListState, ...partial };
}

describe("infiniteListReducer", () => {
  it("load goes ready → loading and counts the attempt", () => {
    expect(infiniteListReducer(initialInfiniteListState, { type: "load" })).toEqual({
      status: "loading",
      isFirstLoad: true,
      attempt: 1,
    });
  });

  it("load is refused while loading or complete, allowed after an error (retry)", () => {
    const loading = state({ status: "loading", attempt: 1 });
    const complete = state({ status: "complete", attempt: 1 });
    expect(infiniteListReducer(loading, { type: "load" })).toBe(loading);
    expect(infiniteListReducer(complete, { type: "load" })).toBe(complete);
    expect(infiniteListReducer(state({ status: "error", attempt: 1 }), { type: "load" }).status).toBe("loading");
  });

  it("loaded goes back to ready and is no longer the first load", () => {
    const next = infiniteListReducer(state({ status: "loading", attempt: 3 }), { type: "loaded", attempt: 3 });
    expect(next).toEqual({ status: "ready", isFirstLoad: false, attempt: 3 });
  });

  it("complete and error end the load", () => {
    const loading = state({ status: "loading", attempt: 2 });
    expect(infiniteListReducer(loading, { type: "complete", attempt: 2 }).status).toBe("complete");
    expect(infiniteListReducer(loading, { type: "error", attempt: 2 }).status).toBe("error");
  });

  it("loaded then complete in one go ends as complete with 'no more'", () => {
    let s = infiniteListReducer(initialInfiniteListState, { type: "load" });
    s = infiniteListReducer(s, { type: "loaded", attempt: s.attempt });
    s = infiniteListReducer(s, { type: "complete", attempt: s.attempt });
    expect(s).toMatchObject({ status: "complete", isFirstLoad: false });
  });

  it("reset makes it ready and first again, and invalidates answers of older attempts", () => {
    const done = state({ status: "complete", isFirstLoad: false, attempt: 4 });
    const reset = infiniteListReducer(done, { type: "reset" });
    expect(reset).toEqual({ status: "ready", isFirstLoad: true, attempt: 5 });
    const reloading = infiniteListReducer(reset, { type: "load" });
    expect(infiniteListReducer(reloading, { type: "complete", attempt: 4 })).toBe(reloading);
    expect(infiniteListReducer(reloading, { type: "loaded", attempt: 4 })).toBe(reloading);
    expect(infiniteListReducer(reloading, { type: "error", attempt: 4 })).toBe(reloading);
  });
});

describe("infiniteStatusText", () => {
  it("complete before any loaded() says no results", () => {
    expect(infiniteStatusText(state({ status: "complete", isFirstLoad: true }))).toBe(texts.noResults);
  });

  it("complete after a loaded() says no more", () => {
    expect(infiniteStatusText(state({ status: "complete", isFirstLoad: false }))).toBe(texts.noMore);
  });

  it("error shows the error text; ready and loading show nothing", () => {
    expect(infiniteStatusText(state({ status: "error" }))).toBe(texts.error);
    expect(infiniteStatusText(state({ status: "ready" }))).toBeNull();
    expect(infiniteStatusText(state({ status: "loading" }))).toBeNull();
  });

  it("takes other texts when given", () => {
    const zh = { noResults: "暂无内容", noMore: "没有更多了", error: "加载失败", retry: "重试" };
    expect(infiniteStatusText(state({ status: "complete", isFirstLoad: false }), zh)).toBe("没有更多了");
  });
});

describe("isWithinDistance", () => {
  it("loads when the loader top is at most 100 px below the viewport bottom", () => {
    expect(isWithinDistance(800 + 100, 800, INFINITE_LIST.distance)).toBe(true);
    expect(isWithinDistance(800 + 101, 800, INFINITE_LIST.distance)).toBe(false);
    expect(isWithinDistance(-50, 800, INFINITE_LIST.distance)).toBe(true);
  });
});

describe("createTrailingThrottle", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("runs once, 50 ms after the first call, dropping calls in between", () => {
    const fn = vi.fn();
    const t = createTrailingThrottle(fn, INFINITE_LIST.throttleMs);
    t.schedule();
    vi.advanceTimersByTime(30);
    t.schedule();
    t.schedule();
    vi.advanceTimersByTime(19);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(100);
    expect(fn).toHaveBeenCalledTimes(1);
    t.schedule();
    vi.advanceTimersByTime(50);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it("cancel drops the pending run", () => {
    const fn = vi.fn();
    const t = createTrailingThrottle(fn, 50);
    t.schedule();
    t.cancel();
    vi.advanceTimersByTime(100);
    expect(fn).not.toHaveBeenCalled();
  });
});

describe("InfiniteListMachine", () => {
  it("starts one load per ready state and hands out working handles", () => {
    const handles: InfiniteLoadState[] = [];
    const m = new InfiniteListMachine((h) => handles.push(h));
    expect(m.attemptLoad()).toBe(true);
    expect(m.attemptLoad()).toBe(false);
    expect(handles).toHaveLength(1);
    handles[0]?.loaded();
    expect(m.getState()).toMatchObject({ status: "ready", isFirstLoad: false });
    expect(m.attemptLoad()).toBe(true);
    handles[1]?.complete();
    expect(m.getState().status).toBe("complete");
    expect(m.attemptLoad()).toBe(false);
  });

  it("a handle from before a reset no longer changes anything", () => {
    const handles: InfiniteLoadState[] = [];
    const m = new InfiniteListMachine((h) => handles.push(h));
    m.attemptLoad();
    handles[0]?.reset();
    m.attemptLoad();
    handles[0]?.complete();
    expect(m.getState().status).toBe("loading");
    handles[1]?.error();
    expect(m.getState().status).toBe("error");
  });
});

type IOCallback = (entries: Array<{ isIntersecting: boolean; target: Element }>) => void;

class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  readonly targets: Element[] = [];
  constructor(
    readonly callback: IOCallback,
    readonly options: { rootMargin?: string } = {},
  ) {
    FakeIntersectionObserver.instances.push(this);
  }
  observe(el: Element) {
    this.targets.push(el);
  }
  unobserve() {}
  disconnect() {}
  fire(isIntersecting: boolean) {
    this.callback(this.targets.map((target) => ({ isIntersecting, target })));
  }
}

describe("<InfiniteList>", () => {
  let container: HTMLElement;
  let root: Root;
  let sentinelTop = 2000;

  beforeEach(() => {
    vi.useFakeTimers();
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal("IntersectionObserver", FakeIntersectionObserver);
    Object.defineProperty(window, "innerHeight", { configurable: true, value: 800 });
    vi.spyOn(HTMLElement.prototype, "offsetWidth", "get").mockReturnValue(320);
    vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
      const top = this.classList.contains("infinite-list") ? sentinelTop : 0;
      return { top, bottom: top, left: 0, right: 0, width: 0, height: 0, x: 0, y: top, toJSON: () => ({}) };
    });
    sentinelTop = 2000;
    container = document.createElement("div");
    document.body.append(container);
    root = createRoot(container);
  });

  afterEach(() => {
    act(() => root.unmount());
    container.remove();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  const el = () => container.querySelector(".infinite-list") as HTMLElement;
  const observer = () => FakeIntersectionObserver.instances.at(-1) as FakeIntersectionObserver;

  it("renders the same neutral sentinel on the server", () => {
    const html = renderToString(<InfiniteList onLoad={() => {}} />);
    expect(html).toContain('data-status="ready"');
    expect(html).not.toContain("infinite-list__status");
  });

  it("observes with a 100 px bottom margin and loads 50 ms after coming into range", async () => {
    const onLoad = vi.fn();
    await act(async () => root.render(<InfiniteList onLoad={onLoad} />));
    expect(observer().options.rootMargin).toBe("0px 0px 100px 0px");
    expect(onLoad).not.toHaveBeenCalled();
    sentinelTop = 850;
    act(() => {
      observer().fire(true);
      observer().fire(true);
    });
    await act(() => vi.advanceTimersByTimeAsync(49));
    expect(onLoad).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(onLoad).toHaveBeenCalledTimes(1);
    expect(el().dataset.status).toBe("loading");
    expect(el().querySelector(".infinite-list__spinner")).not.toBeNull();
  });

  it("keeps loading after loaded() while still in range, then stops when pushed out", async () => {
    const handles: InfiniteLoadState[] = [];
    sentinelTop = 700;
    await act(async () => root.render(<InfiniteList onLoad={(h) => handles.push(h)} />));
    // In range at mount: the first check loads without waiting for a scroll.
    expect(handles).toHaveLength(1);
    await act(async () => handles[0]?.loaded());
    expect(handles).toHaveLength(2);
    sentinelTop = 1500;
    await act(async () => handles[1]?.loaded());
    expect(handles).toHaveLength(2);
    expect(el().dataset.status).toBe("ready");
  });

  it("complete() with nothing loaded says no results; after a loaded() says no more", async () => {
    const handles: InfiniteLoadState[] = [];
    sentinelTop = 700;
    await act(async () => root.render(<InfiniteList onLoad={(h) => handles.push(h)} />));
    await act(async () => handles[0]?.complete());
    expect(el().querySelector(".infinite-list__status")?.textContent).toBe(texts.noResults);

    await act(async () => handles[0]?.reset());
    expect(handles).toHaveLength(2);
    await act(async () => {
      handles[1]?.loaded();
      handles[1]?.complete();
    });
    expect(el().querySelector(".infinite-list__status")?.textContent).toBe(texts.noMore);
    expect(handles).toHaveLength(2);
  });

  it("error() shows the text and a Retry button that loads again; scrolling does not", async () => {
    const handles: InfiniteLoadState[] = [];
    sentinelTop = 700;
    await act(async () => root.render(<InfiniteList onLoad={(h) => handles.push(h)} />));
    await act(async () => handles[0]?.error());
    expect(el().querySelector(".infinite-list__status")?.textContent).toBe(texts.error);
    const button = el().querySelector("button.btn-try-infinite") as HTMLButtonElement;
    expect(button.textContent).toBe(texts.retry);

    act(() => observer().fire(true));
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(handles).toHaveLength(1);

    await act(async () => button.click());
    expect(handles).toHaveLength(2);
    expect(el().dataset.status).toBe("loading");
  });

  it("a new identifier resets the list", async () => {
    const handles: InfiniteLoadState[] = [];
    sentinelTop = 700;
    const onLoad = (h: InfiniteLoadState) => handles.push(h);
    await act(async () => root.render(<InfiniteList onLoad={onLoad} identifier="楷书" />));
    await act(async () => handles[0]?.complete());
    await act(async () => root.render(<InfiniteList onLoad={onLoad} identifier="楷书" />));
    expect(handles).toHaveLength(1);
    await act(async () => root.render(<InfiniteList onLoad={onLoad} identifier="行书" />));
    expect(handles).toHaveLength(2);
  });
});
