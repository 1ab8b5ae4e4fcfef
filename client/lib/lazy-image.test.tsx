// @vitest-environment happy-dom
import { act } from "react";
import { createRoot, hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LAZY_IMAGE } from "../../shared/constants";
import {
  canAttempt,
  createLeadingThrottle,
  ImageCache,
  type IntersectionLike,
  LazyImage,
  LazyImageController,
  type LazyImageDeps,
  LazyObserverHub,
  loadedImages,
  preLoadRootMargin,
} from "./lazy-image";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe("ImageCache", () => {
  it("keeps 200 URLs and forgets the oldest first", () => {
    const cache = new ImageCache();
    for (let i = 0; i < LAZY_IMAGE.cacheSize; i++) cache.add(`/img/${i}.jpg`);
    expect(cache.size).toBe(200);
    expect(cache.has("/img/0.jpg")).toBe(true);
    cache.add("/img/200.jpg");
    expect(cache.size).toBe(200);
    expect(cache.has("/img/0.jpg")).toBe(false);
    expect(cache.has("/img/1.jpg")).toBe(true);
    expect(cache.has("/img/200.jpg")).toBe(true);
    cache.add("/img/201.jpg");
    expect(cache.has("/img/1.jpg")).toBe(false);
  });

  it("adding a known URL neither duplicates it nor makes it younger", () => {
    const cache = new ImageCache(3);
    cache.add("a");
    cache.add("b");
    cache.add("a");
    cache.add("c");
    expect(cache.size).toBe(3);
    cache.add("d");
    expect(cache.has("a")).toBe(false);
    expect(cache.has("b")).toBe(true);
  });
});

describe("preLoadRootMargin", () => {
  it("turns preLoad 1.3 into 30 % below and to the right", () => {
    expect(preLoadRootMargin()).toBe("0px 30% 30% 0px");
    expect(preLoadRootMargin(1.5)).toBe("0px 50% 50% 0px");
  });
});

describe("canAttempt", () => {
  it("allows 3 tries in all, never while one runs or after success", () => {
    expect(canAttempt({ status: "loading", attempts: 0, inFlight: false })).toBe(true);
    expect(canAttempt({ status: "loading", attempts: 1, inFlight: true })).toBe(false);
    expect(canAttempt({ status: "error", attempts: 2, inFlight: false })).toBe(true);
    expect(canAttempt({ status: "error", attempts: 3, inFlight: false })).toBe(false);
    expect(canAttempt({ status: "loaded", attempts: 1, inFlight: false })).toBe(false);
  });
});

describe("LazyImageController", () => {
  function setup(results: boolean[]) {
    const cache = new ImageCache();
    const loadImage = vi.fn((_src: string) => (results.shift() ? Promise.resolve() : Promise.reject(new Error("404"))));
    const deps: LazyImageDeps = { cache, loadImage, maxAttempts: LAZY_IMAGE.attempts };
    return { cache, loadImage, deps };
  }

  it("gives up after 3 failed tries", async () => {
    const { loadImage, deps } = setup([false, false, false, true]);
    const c = new LazyImageController("/a.jpg", deps);
    for (let i = 1; i <= 3; i++) {
      expect(c.visible()).toBe(true);
      expect(c.getSnapshot()).toMatchObject({ status: "loading", attempts: i, inFlight: true });
      await Promise.resolve();
      await Promise.resolve();
      expect(c.getSnapshot()).toMatchObject({ status: "error", attempts: i, inFlight: false });
    }
    expect(c.settled).toBe(true);
    expect(c.visible()).toBe(false);
    expect(loadImage).toHaveBeenCalledTimes(3);
  });

  it("a retry that succeeds ends loaded and is remembered", async () => {
    const { cache, deps } = setup([false, true]);
    const c = new LazyImageController("/b.jpg", deps);
    c.visible();
    await vi.waitFor(() => expect(c.getSnapshot().status).toBe("error"));
    expect(c.settled).toBe(false);
    c.visible();
    await vi.waitFor(() => expect(c.getSnapshot().status).toBe("loaded"));
    expect(c.getSnapshot().attempts).toBe(2);
    expect(cache.has("/b.jpg")).toBe(true);
    expect(c.settled).toBe(true);
  });

  it("does not start a second load while one runs", () => {
    const { loadImage, deps } = setup([]);
    loadImage.mockReturnValue(new Promise(() => {}));
    const c = new LazyImageController("/c.jpg", deps);
    c.visible();
    c.visible();
    expect(loadImage).toHaveBeenCalledTimes(1);
  });

  it("a cached URL starts loaded with no request, unless hydrating; then the first sight uses the cache", () => {
    const { cache, loadImage, deps } = setup([]);
    cache.add("/d.jpg");
    expect(new LazyImageController("/d.jpg", deps).getSnapshot().status).toBe("loaded");
    const hydrating = new LazyImageController("/d.jpg", deps, false);
    expect(hydrating.getSnapshot().status).toBe("loading");
    expect(hydrating.visible()).toBe(false);
    expect(hydrating.getSnapshot().status).toBe("loaded");
    expect(loadImage).not.toHaveBeenCalled();
  });
});

describe("createLeadingThrottle", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("runs at once, then at most once per 200 ms with a trailing run", () => {
    const fn = vi.fn();
    const t = createLeadingThrottle(fn, LAZY_IMAGE.throttleMs);
    t.call();
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(50);
    t.call();
    t.call();
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(199);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(200);
    t.call();
    expect(fn).toHaveBeenCalledTimes(3);
  });
});

class FakeObserver {
  readonly observed = new Set<Element>();
  constructor(readonly callback: (entries: readonly IntersectionLike[]) => void) {}
  observe(el: Element) {
    this.observed.add(el);
  }
  unobserve(el: Element) {
    this.observed.delete(el);
  }
  disconnect() {
    this.observed.clear();
  }
  report(target: Element, isIntersecting: boolean) {
    this.callback([{ target, isIntersecting }]);
  }
}

describe("LazyObserverHub", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup() {
    const observers: FakeObserver[] = [];
    const hub = new LazyObserverHub((cb) => {
      const o = new FakeObserver(cb);
      observers.push(o);
      return o;
    });
    return { hub, observers };
  }

  it("uses one observer for every image", () => {
    const { hub, observers } = setup();
    const a = document.createElement("span");
    const b = document.createElement("span");
    hub.observe(a, () => {});
    hub.observe(b, () => {});
    expect(observers).toHaveLength(1);
    expect(observers[0]?.observed.size).toBe(2);
  });

  it("batches reports by the throttle and skips images that left before the check", () => {
    const { hub, observers } = setup();
    const [a, b, c] = [1, 2, 3].map(() => document.createElement("span")) as [HTMLElement, HTMLElement, HTMLElement];
    const seen: string[] = [];
    hub.observe(a, () => seen.push("a"));
    hub.observe(b, () => seen.push("b"));
    hub.observe(c, () => seen.push("c"));
    const o = observers[0] as FakeObserver;
    o.report(a, true);
    expect(seen).toEqual(["a"]);
    o.report(b, true);
    o.report(c, true);
    o.report(c, false);
    expect(seen).toEqual(["a"]);
    vi.advanceTimersByTime(LAZY_IMAGE.throttleMs);
    expect(seen).toEqual(["a", "b"]);
  });

  it("reports an image again only when it comes back into range", () => {
    const { hub, observers } = setup();
    const a = document.createElement("span");
    const b = document.createElement("span");
    const onA = vi.fn();
    hub.observe(a, onA);
    hub.observe(b, () => {});
    const o = observers[0] as FakeObserver;
    o.report(a, true);
    expect(onA).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(500);
    o.report(b, true);
    vi.advanceTimersByTime(500);
    expect(onA).toHaveBeenCalledTimes(1);
    o.report(a, false);
    o.report(a, true);
    vi.advanceTimersByTime(500);
    expect(onA).toHaveBeenCalledTimes(2);
  });

  it("forgets an unobserved image", () => {
    const { hub, observers } = setup();
    const a = document.createElement("span");
    const onA = vi.fn();
    hub.observe(a, onA);
    hub.unobserve(a);
    observers[0]?.report(a, true);
    vi.advanceTimersByTime(500);
    expect(onA).not.toHaveBeenCalled();
    expect(observers[0]?.observed.size).toBe(0);
  });
});

/** Images whose URL contains "broken" fail; others load on the next microtask. */
class FakeImage {
  static requested: string[] = [];
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  set src(value: string) {
    FakeImage.requested.push(value);
    queueMicrotask(() => (value.includes("broken") ? this.onerror?.() : this.onload?.()));
  }
}

class FakeIntersectionObserver {
  static instances: FakeIntersectionObserver[] = [];
  readonly targets = new Set<Element>();
  constructor(
    readonly callback: (entries: IntersectionLike[]) => void,
    readonly options: { rootMargin?: string },
  ) {
    FakeIntersectionObserver.instances.push(this);
  }
  observe(el: Element) {
    this.targets.add(el);
  }
  unobserve(el: Element) {
    this.targets.delete(el);
  }
  disconnect() {}
  report(target: Element, isIntersecting: boolean) {
    this.callback([{ target, isIntersecting }]);
  }
}

describe("<LazyImage>", () => {
  let container: HTMLElement;
  let root: Root | undefined;

  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal("IntersectionObserver", FakeIntersectionObserver);
    vi.stubGlobal("Image", FakeImage);
    FakeImage.requested = [];
    loadedImages.clear();
    container = document.createElement("div");
    document.body.append(container);
  });

  afterEach(() => {
    act(() => root?.unmount());
    root = undefined;
    container.remove();
    // The hub is shared by the whole page: let its throttle finish before the clock is swapped.
    vi.runOnlyPendingTimers();
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  const reportInRange = async () => {
    await act(async () => {
      hubObserver().report(box(), false);
      hubObserver().report(box(), true);
      await vi.advanceTimersByTimeAsync(LAZY_IMAGE.throttleMs);
    });
  };

  const box = () => container.querySelector(".lazy-image") as HTMLElement;
  const img = () => container.querySelector("img") as HTMLImageElement;
  const hubObserver = () => FakeIntersectionObserver.instances[0] as FakeIntersectionObserver;

  it("renders a loading box with the image's size on the server", () => {
    const html = renderToString(
      <LazyImage src="/k/1.jpg" alt="颜真卿多宝塔碑" width={300} height={200} className="cover" />,
    );
    expect(html).toContain('data-lazy="loading"');
    expect(html).toContain('class="lazy-image lazy-image--loading cover"');
    expect(html).toContain('width="300"');
    expect(html).toContain('height="200"');
    expect(html).toContain("aspect-ratio:300 / 200");
    // The lazy <img> holds the placeholder; the real picture is only in the <noscript> copy.
    const [outside, inside] = html.split("<noscript>");
    expect(outside).not.toContain("/k/1.jpg");
    expect(inside).toMatch(/<img[^>]*src="\/k\/1\.jpg"[^>]*alt="颜真卿多宝塔碑"[^>]*loading="lazy"/);
  });

  it("a priority picture is in the page from the server on, fetched first, and hydrates as it is", async () => {
    const el = <LazyImage src="/k/9.jpg" alt="课程封面" width={480} height={270} className="cover" priority />;
    const html = renderToString(el);
    expect(html).toMatch(/<img[^>]*src="\/k\/9\.jpg"[^>]*fetchPriority="high"/);
    expect(html).toContain('data-lazy="loaded"');
    expect(html).toContain('class="lazy-image lazy-image--eager cover"');
    expect(html).not.toContain("<noscript>");
    expect(html).not.toContain('loading="lazy"');
    container.innerHTML = html;
    const recoverable = vi.fn();
    await act(async () => {
      root = hydrateRoot(container, el, { onRecoverableError: recoverable });
    });
    expect(recoverable).not.toHaveBeenCalled();
    expect(img().getAttribute("src")).toBe("/k/9.jpg");
    // Not left to the observer and its throttle, nor loaded a second time through new Image().
    expect(FakeIntersectionObserver.instances).toHaveLength(0);
    expect(FakeImage.requested).toEqual([]);
  });

  it("a priority picture that fails shows the error text in the same box", async () => {
    await act(async () => {
      root = createRoot(container);
      root.render(<LazyImage src="/k/8.jpg" alt="课程封面" width={480} height={270} className="cover" priority />);
    });
    expect(box().className).toBe("lazy-image lazy-image--eager cover");
    expect(box().querySelector(".lazy-image__error")).toBeNull();
    await act(async () => {
      img().dispatchEvent(new Event("error"));
    });
    expect(box().className).toBe("lazy-image lazy-image--error cover");
    expect(box().dataset.lazy).toBe("error");
    expect(box().style.getPropertyValue("--lazy-image-width")).toBe("480px");
    expect(box().querySelector(".lazy-image__error")?.textContent).toBe("图片加载失败");
  });

  it("drops the <noscript> copy once hydrated", async () => {
    const el = <LazyImage src="/k/5.jpg" alt="字帖" width={100} height={100} />;
    container.innerHTML = renderToString(el);
    expect(container.querySelector("noscript")).not.toBeNull();
    const recoverable = vi.fn();
    await act(async () => {
      root = hydrateRoot(container, el, { onRecoverableError: recoverable });
    });
    expect(recoverable).not.toHaveBeenCalled();
    expect(container.querySelector("noscript")).toBeNull();
    expect(container.querySelectorAll("img")).toHaveLength(1);
  });

  it("loads when the shared observer reports it in range, and keeps its size", async () => {
    await act(async () => {
      root = createRoot(container);
      root.render(<LazyImage src="/k/2.jpg" alt="字帖" width={300} height={200} />);
    });
    expect(box().dataset.lazy).toBe("loading");
    expect(hubObserver().options.rootMargin).toBe("0px 30% 30% 0px");
    expect(FakeImage.requested).toEqual([]);
    await reportInRange();
    expect(box().dataset.lazy).toBe("loaded");
    expect(img().getAttribute("src")).toBe("/k/2.jpg");
    expect(img().getAttribute("width")).toBe("300");
    expect(img().getAttribute("height")).toBe("200");
    expect(loadedImages.has("/k/2.jpg")).toBe(true);
    expect(hubObserver().targets.has(box())).toBe(false);
  });

  it("renders a cached URL loaded at once, with no request", async () => {
    loadedImages.add("/k/3.jpg");
    await act(async () => {
      root = createRoot(container);
      root.render(<LazyImage src="/k/3.jpg" alt="字帖" width={100} height={100} />);
    });
    expect(box().dataset.lazy).toBe("loaded");
    expect(img().getAttribute("src")).toBe("/k/3.jpg");
    expect(FakeImage.requested).toEqual([]);
  });

  it("hydrates a cached URL without a mismatch, then shows it", async () => {
    const el = <LazyImage src="/k/4.jpg" alt="字帖" width={100} height={100} />;
    container.innerHTML = renderToString(el);
    loadedImages.add("/k/4.jpg");
    const recoverable = vi.fn();
    await act(async () => {
      root = hydrateRoot(container, el, { onRecoverableError: recoverable });
    });
    expect(recoverable).not.toHaveBeenCalled();
    expect(box().dataset.lazy).toBe("loading");
    await reportInRange();
    expect(box().dataset.lazy).toBe("loaded");
    expect(FakeImage.requested).toEqual([]);
  });

  it("shows the error text, retries on re-intersection, and stops after 3 tries", async () => {
    await act(async () => {
      root = createRoot(container);
      root.render(<LazyImage src="/k/broken.jpg" alt="字帖" width={100} height={100} />);
    });
    for (let i = 1; i <= 3; i++) {
      await reportInRange();
      expect(FakeImage.requested).toHaveLength(i);
      expect(box().dataset.lazy).toBe("error");
    }
    expect(box().querySelector(".lazy-image__error")?.textContent).toBe("图片加载失败");
    await reportInRange();
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(FakeImage.requested).toHaveLength(3);
  });
});
