/**
 * Masonry grid with the behaviour of vue-waterfall2 (reference §9): 2 columns 10 px apart,
 * each item goes into the shortest column, items already placed stay put when more are
 * appended, and "load more" fires once within 300 px (scaled to a 375 px-wide screen) of the end.
 */
import { type Key, type ReactNode, useEffect, useLayoutEffect, useRef, useState } from "react";
import { WATERFALL } from "../../shared/constants";

/** Places items one by one into the shortest column (the first, on a tie); returns column per item. */
export function placeInShortest(heights: readonly number[], columnHeights: readonly number[]): number[] {
  const totals = [...columnHeights];
  return heights.map((height) => {
    let shortest = 0;
    for (let c = 1; c < totals.length; c++) {
      if ((totals[c] ?? 0) < (totals[shortest] ?? 0)) shortest = c;
    }
    totals[shortest] = (totals[shortest] ?? 0) + height;
    return shortest;
  });
}

/** Item indexes per column, each item in the column that was shortest when its turn came. */
export function distributeToColumns(heights: readonly number[], columns: number): number[][] {
  const count = Math.max(1, Math.floor(columns));
  return groupByColumn(placeInShortest(heights, new Array<number>(count).fill(0)), count);
}

/** The server knows no heights: item i in column i mod n keeps its markup deterministic. */
export function roundRobin(itemCount: number, columns: number): number[] {
  return Array.from({ length: itemCount }, (_, i) => i % columns);
}

export function groupByColumn(assignment: readonly number[], columns: number): number[][] {
  const grouped = Array.from({ length: columns }, () => [] as number[]);
  for (const [index, column] of assignment.entries()) grouped[column]?.push(index);
  return grouped;
}

/** vue-waterfall2 scales its 300 px to the screen width against a 375 px-wide phone. */
export function loadMoreDistance(viewportWidth: number): number {
  return (WATERFALL.distance * viewportWidth) / WATERFALL.baseWidth;
}

/** Fires once on coming into range; arms again when out of range or when the items change. */
export class LoadMoreGate {
  private armed = true;

  constructor(private readonly fire: () => void) {}

  update(inRange: boolean) {
    if (!inRange) {
      this.armed = true;
      return;
    }
    if (!this.armed) return;
    this.armed = false;
    this.fire();
  }

  rearm() {
    this.armed = true;
  }
}

const useIsoLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/**
 * Like vue-waterfall2, a longer `items` only places the new items; a list replaced by one of the
 * same length keeps its columns, so give the Waterfall a new `key` when the list is replaced.
 */
export interface WaterfallProps<T> {
  items: readonly T[];
  render: (item: T, index: number) => ReactNode;
  columns?: number;
  gutter?: number;
  onLoadMore?: () => void;
  /** Stable keys keep an item's state when it moves to another column; the index is used otherwise. */
  getKey?: (item: T, index: number) => Key;
  className?: string;
}

export function Waterfall<T>({
  items,
  render,
  columns = WATERFALL.columns,
  gutter = WATERFALL.gutter,
  onLoadMore,
  getKey,
  className,
}: WaterfallProps<T>) {
  const [assignment, setAssignment] = useState<readonly number[]>(() => roundRobin(items.length, columns));
  const [width, setWidth] = useState<number | null>(null);
  const [distance, setDistance] = useState<number | null>(null);
  const itemEls = useRef(new Map<number, HTMLElement>());
  const rootRef = useRef<HTMLDivElement | null>(null);
  const sentinelRef = useRef<HTMLDivElement | null>(null);
  const onLoadMoreRef = useRef(onLoadMore);
  const gateRef = useRef<LoadMoreGate | null>(null);
  gateRef.current ??= new LoadMoreGate(() => onLoadMoreRef.current?.());
  /** What the last measured layout was for: appends keep it, anything else redoes it. */
  const laidOut = useRef<{ count: number; columns: number; width: number | null } | null>(null);

  useEffect(() => {
    onLoadMoreRef.current = onLoadMore;
  });

  // Items not placed yet (just appended) sit round-robin until measured.
  const current = items.map((_, i) => {
    const column = assignment[i];
    return column !== undefined && column < columns ? column : i % columns;
  });

  useIsoLayoutEffect(() => {
    const heightOf = (i: number) => (itemEls.current.get(i)?.getBoundingClientRect().height ?? 0) + gutter;
    const previous = laidOut.current;
    const append =
      previous !== null && previous.columns === columns && previous.width === width && previous.count <= items.length;
    let next: number[];
    if (append) {
      const kept = current.slice(0, previous.count);
      const totals = new Array<number>(columns).fill(0);
      kept.forEach((column, i) => {
        totals[column] = (totals[column] ?? 0) + heightOf(i);
      });
      const added = items.slice(previous.count).map((_, k) => heightOf(previous.count + k));
      next = [...kept, ...placeInShortest(added, totals)];
    } else {
      next = placeInShortest(
        items.map((_, i) => heightOf(i)),
        new Array<number>(columns).fill(0),
      );
    }
    laidOut.current = { count: items.length, columns, width };
    if (next.length !== assignment.length || next.some((c, i) => c !== assignment[i])) setAssignment(next);
  }, [items, columns, gutter, width]);

  // A width change changes every height; vue-waterfall2 lays out again on resize too.
  useEffect(() => {
    const root = rootRef.current;
    if (!root || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.round(entry.contentRect.width));
    });
    observer.observe(root);
    return () => observer.disconnect();
  }, []);

  // Read once, as vue-waterfall2 does: a rotation does not rescale the distance.
  useEffect(() => {
    setDistance(loadMoreDistance(document.documentElement.clientWidth));
  }, []);

  useEffect(() => {
    const el = sentinelRef.current;
    const gate = gateRef.current;
    if (!el || !gate || distance === null || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries.at(-1);
        if (entry) gate.update(entry.isIntersecting);
      },
      { rootMargin: `0px 0px ${distance}px 0px` },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [distance]);

  // New items: allowed to ask again, at once if the end is still in range (the observer won't
  // re-fire). Keyed on the count so that a parent passing a fresh array each render cannot loop.
  const itemCount = items.length;
  useEffect(() => {
    const el = sentinelRef.current;
    const gate = gateRef.current;
    if (!el || !gate || distance === null) return;
    gate.rearm();
    gate.update(el.getBoundingClientRect().top - window.innerHeight < distance);
  }, [itemCount, distance]);

  const grouped = groupByColumn(current, columns);
  return (
    <div ref={rootRef} className={className ? `waterfall ${className}` : "waterfall"}>
      <div className="waterfall__columns" style={{ columnGap: gutter }}>
        {grouped.map((indexes, column) => (
          <div className="waterfall__column" key={column}>
            {indexes.map((i) => {
              const item = items[i] as T;
              return (
                <div
                  className="waterfall__item"
                  key={getKey ? getKey(item, i) : i}
                  data-index={i}
                  style={{ marginBottom: gutter }}
                  ref={(el) => {
                    if (el) itemEls.current.set(i, el);
                    else itemEls.current.delete(i);
                  }}
                >
                  {render(item, i)}
                </div>
              );
            })}
          </div>
        ))}
      </div>
      <div ref={sentinelRef} className="waterfall__sentinel" aria-hidden="true" />
    </div>
  );
}
