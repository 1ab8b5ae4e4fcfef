// @vitest-environment happy-dom
import { act } from "react";
import { createRoot, hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WATERFALL } from "../../shared/constants";
import {
  distributeToColumns,
  groupByColumn,
  LoadMoreGate,
  loadMoreDistance,
  placeInShortest,
  roundRobin,
  Waterfall,
} from "./waterfall";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe("distributeToColumns", () => {
  it("puts each item into the shortest column so far", () => {
    // Column totals: [100, 50] → 3rd goes right → [100, 80] → 4th right → [100, 120] → 5th left.
    expect(distributeToColumns([100, 50, 30, 40, 10], 2)).toEqual([
      [0, 4],
      [1, 2, 3],
    ]);
  });

  it("breaks ties to the first column", () => {
    expect(distributeToColumns([10, 10, 10, 10], 2)).toEqual([
      [0, 2],
      [1, 3],
    ]);
    expect(distributeToColumns([5, 5, 5], 3)).toEqual([[0], [1], [2]]);
  });

  it("handles three columns and a tall first item", () => {
    expect(distributeToColumns([300, 100, 100, 100, 100], 3)).toEqual([[0], [1, 3], [2, 4]]);
  });

  it("returns empty columns for no items and clamps columns to at least one", () => {
    expect(distributeToColumns([], 2)).toEqual([[], []]);
    expect(distributeToColumns([1, 2], 0)).toEqual([[0, 1]]);
  });

  it("keeps every item exactly once, in order within its column", () => {
    const heights = [37, 12, 90, 4, 55, 61, 8, 23, 70, 16];
    const cols = distributeToColumns(heights, 3);
    expect(cols.flat().sort((a, b) => a - b)).toEqual(heights.map((_, i) => i));
    for (const col of cols) expect([...col].sort((a, b) => a - b)).toEqual(col);
  });
});

describe("placeInShortest", () => {
  it("continues from existing column heights when items are appended", () => {
    expect(placeInShortest([10, 10], [200, 50])).toEqual([1, 1]);
    expect(placeInShortest([200, 10], [100, 50])).toEqual([1, 0]);
  });
});

describe("roundRobin and groupByColumn", () => {
  it("deals items across columns in turn", () => {
    expect(roundRobin(5, 2)).toEqual([0, 1, 0, 1, 0]);
    expect(groupByColumn(roundRobin(5, 2), 2)).toEqual([
      [0, 2, 4],
      [1, 3],
    ]);
  });
});

describe("loadMoreDistance", () => {
  it("is 300 px on a 375 px screen and scales with the width", () => {
    expect(loadMoreDistance(WATERFALL.baseWidth)).toBe(300);
    expect(loadMoreDistance(750)).toBe(600);
    expect(loadMoreDistance(414)).toBeCloseTo(331.2, 6);
  });
});

describe("LoadMoreGate", () => {
  it("fires once while in range and again only after leaving or a rearm", () => {
    const fire = vi.fn();
    const gate = new LoadMoreGate(fire);
    gate.update(true);
    gate.update(true);
    expect(fire).toHaveBeenCalledTimes(1);
    gate.update(false);
    gate.update(true);
    expect(fire).toHaveBeenCalledTimes(2);
    gate.rearm();
    gate.update(true);
    expect(fire).toHaveBeenCalledTimes(3);
    gate.update(true);
    expect(fire).toHaveBeenCalledTimes(3);
  });
});

class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  readonly targets: Element[] = [];
  constructor(
    readonly callback: (entries: Array<{ isIntersecting: boolean; target: Element }>) => void,
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

interface Card {
  id: string;
  h: number;
}

const cards = (hs: number[], from = 0): Card[] => hs.map((h, i) => ({ id: `c${from + i}`, h }));
const renderCard = (c: Card) => <div data-h={c.h}>{c.id}</div>;

describe("<Waterfall>", () => {
  let container: HTMLElement;
  let root: Root | undefined;
  let sentinelTop = 5000;

  beforeEach(() => {
    FakeIntersectionObserver.instances = [];
    vi.stubGlobal("IntersectionObserver", FakeIntersectionObserver);
    Object.defineProperty(window, "innerHeight", { configurable: true, value: 800 });
    Object.defineProperty(document.documentElement, "clientWidth", { configurable: true, value: 750 });
    sentinelTop = 5000;
    // Items are as tall as their card says; the sentinel sits where the test puts it.
    vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
      const h = Number(this.querySelector<HTMLElement>("[data-h]")?.dataset.h ?? 0);
      const top = this.classList.contains("waterfall__sentinel") ? sentinelTop : 0;
      const height = this.classList.contains("waterfall__item") ? h : 0;
      return { top, bottom: top + height, left: 0, right: 0, width: 0, height, x: 0, y: top, toJSON: () => ({}) };
    });
    container = document.createElement("div");
    document.body.append(container);
  });

  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    container.remove();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const columnIds = () =>
    Array.from(container.querySelectorAll(".waterfall__column")).map((col) =>
      Array.from(col.querySelectorAll("[data-h]")).map((el) => el.textContent),
    );
  const observer = () => FakeIntersectionObserver.instances.at(-1) as FakeIntersectionObserver;

  it("renders round-robin on the server, with 2 columns by default", () => {
    const html = renderToString(<Waterfall items={cards([300, 10, 10, 10])} render={renderCard} />);
    container.innerHTML = html;
    expect(columnIds()).toEqual([
      ["c0", "c2"],
      ["c1", "c3"],
    ]);
  });

  it("hydrates without a mismatch, then rebalances by measured height", async () => {
    const items = cards([300, 10, 10, 10]);
    const el = <Waterfall items={items} render={renderCard} />;
    container.innerHTML = renderToString(el);
    const recoverable = vi.fn();
    await act(async () => {
      root = hydrateRoot(container, el, { onRecoverableError: recoverable });
    });
    expect(recoverable).not.toHaveBeenCalled();
    // Heights + 10 px gutter: [310] vs [20, 20, 20].
    expect(columnIds()).toEqual([["c0"], ["c1", "c2", "c3"]]);
  });

  it("places appended items into the shortest column and leaves placed ones alone", async () => {
    const first = cards([100, 300]);
    await act(async () => {
      root = createRoot(container);
      root.render(<Waterfall items={first} render={renderCard} getKey={(c) => c.id} />);
    });
    expect(columnIds()).toEqual([["c0"], ["c1"]]);
    const more = [...first, ...cards([50, 50, 50], 2)];
    await act(async () => root?.render(<Waterfall items={more} render={renderCard} getKey={(c) => c.id} />));
    expect(columnIds()).toEqual([["c0", "c2", "c3", "c4"], ["c1"]]);
  });

  it("uses the gutter between columns and under items", async () => {
    await act(async () => {
      root = createRoot(container);
      root.render(<Waterfall items={cards([10])} render={renderCard} columns={3} gutter={16} />);
    });
    expect(container.querySelectorAll(".waterfall__column")).toHaveLength(3);
    expect((container.querySelector(".waterfall__columns") as HTMLElement).style.columnGap).toBe("16px");
    expect((container.querySelector(".waterfall__item") as HTMLElement).style.marginBottom).toBe("16px");
  });

  it("observes with the scaled distance and fires load-more once until out of range or new items", async () => {
    const onLoadMore = vi.fn();
    const items = cards([100, 100]);
    await act(async () => {
      root = createRoot(container);
      root.render(<Waterfall items={items} render={renderCard} onLoadMore={onLoadMore} />);
    });
    // 750 px wide: 300 × 750 / 375 = 600 px.
    expect(observer().options.rootMargin).toBe("0px 0px 600px 0px");
    expect(onLoadMore).not.toHaveBeenCalled();

    act(() => observer().fire(true));
    act(() => observer().fire(true));
    expect(onLoadMore).toHaveBeenCalledTimes(1);

    act(() => observer().fire(false));
    act(() => observer().fire(true));
    expect(onLoadMore).toHaveBeenCalledTimes(2);

    // More items while the end is still in range: asks again without a new observer report.
    sentinelTop = 1000;
    await act(async () =>
      root?.render(<Waterfall items={[...items, ...cards([10], 2)]} render={renderCard} onLoadMore={onLoadMore} />),
    );
    expect(onLoadMore).toHaveBeenCalledTimes(3);

    // More items that push the end out of range: nothing until the user scrolls near it.
    sentinelTop = 3000;
    await act(async () =>
      root?.render(<Waterfall items={[...items, ...cards([10, 10], 2)]} render={renderCard} onLoadMore={onLoadMore} />),
    );
    expect(onLoadMore).toHaveBeenCalledTimes(3);
  });

  it("does not ask again when the parent re-renders with a fresh but equal-length array", async () => {
    const onLoadMore = vi.fn();
    sentinelTop = 900;
    await act(async () => {
      root = createRoot(container);
      root.render(<Waterfall items={cards([10])} render={renderCard} onLoadMore={onLoadMore} />);
    });
    expect(onLoadMore).toHaveBeenCalledTimes(1);
    await act(async () => root?.render(<Waterfall items={cards([10])} render={renderCard} onLoadMore={onLoadMore} />));
    expect(onLoadMore).toHaveBeenCalledTimes(1);
  });
});
