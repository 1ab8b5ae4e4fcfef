/**
 * Lazy images with the behaviour of vue-lazyload 1.3 (reference §7): load once the image is
 * within 1.3 viewports, checks throttled to one per 200 ms, 3 tries in all (a retry when the
 * image comes into range again), and a FIFO memory of 200 loaded URLs that show at once.
 */
import { type CSSProperties, type ReactNode, type Ref, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { LAZY_IMAGE } from "../../shared/constants";

export type LazyStatus = "loading" | "loaded" | "error";

/** FIFO set of URLs that loaded; the oldest is forgotten past `max`. */
export class ImageCache {
  private readonly urls = new Set<string>();

  constructor(private readonly max: number = LAZY_IMAGE.cacheSize) {}

  has(url: string): boolean {
    return this.urls.has(url);
  }

  add(url: string) {
    if (this.urls.has(url)) return;
    this.urls.add(url);
    if (this.urls.size > this.max) {
      const oldest = this.urls.values().next();
      if (!oldest.done) this.urls.delete(oldest.value);
    }
  }

  get size(): number {
    return this.urls.size;
  }

  clear() {
    this.urls.clear();
  }
}

/** Lives as long as the page, as vue-lazyload's cache does. */
export const loadedImages = new ImageCache();

export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): ReturnType<typeof setTimeout>;
  clearTimeout(id: ReturnType<typeof setTimeout>): void;
}

// Globals are looked up per call so that test fake timers apply.
const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (id) => clearTimeout(id),
};

/** vue-lazyload's throttle: run now if `ms` passed since the last run, else once `ms` later. */
export function createLeadingThrottle(fn: () => void, ms: number, clock: Clock = realClock) {
  let lastRun = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    timer = undefined;
    lastRun = clock.now();
    fn();
  };
  return {
    call() {
      if (timer !== undefined) return;
      if (clock.now() - lastRun >= ms) run();
      else timer = clock.setTimeout(run, ms);
    },
    cancel() {
      if (timer !== undefined) clock.clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** preLoad 1.3 means 30 % of the viewport beyond its bottom and right edges. */
export function preLoadRootMargin(preLoad: number = LAZY_IMAGE.preLoad): string {
  const extra = Math.round((preLoad - 1) * 100);
  return `0px ${extra}% ${extra}% 0px`;
}

export interface LazyImageSnapshot {
  status: LazyStatus;
  attempts: number;
  inFlight: boolean;
}

/** vue-lazyload gives up once an image has failed `maxAttempts` times. */
export function canAttempt(state: LazyImageSnapshot, maxAttempts: number = LAZY_IMAGE.attempts): boolean {
  if (state.status === "loaded" || state.inFlight) return false;
  return !(state.status === "error" && state.attempts >= maxAttempts);
}

export interface LazyImageDeps {
  cache: ImageCache;
  loadImage: (src: string) => Promise<void>;
  maxAttempts: number;
}

export function loadImageElement(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve();
    img.onerror = () => reject(new Error(`image failed: ${src}`));
    img.src = src;
  });
}

const defaultDeps: LazyImageDeps = {
  cache: loadedImages,
  loadImage: loadImageElement,
  maxAttempts: LAZY_IMAGE.attempts,
};

/** One image's attempts; `visible()` is what the shared observer calls. */
export class LazyImageController {
  private snapshot: LazyImageSnapshot;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly src: string,
    private readonly deps: LazyImageDeps = defaultDeps,
    /** False while hydrating: the server could not know the browser's cache. */
    useCache = true,
  ) {
    const cached = useCache && deps.cache.has(src);
    this.snapshot = { status: cached ? "loaded" : "loading", attempts: 0, inFlight: false };
  }

  getSnapshot = (): LazyImageSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Loaded, or out of attempts: the observer can let go. */
  get settled(): boolean {
    return !canAttempt({ ...this.snapshot, inFlight: false }, this.deps.maxAttempts);
  }

  private set(next: Partial<LazyImageSnapshot>) {
    this.snapshot = { ...this.snapshot, ...next };
    for (const listener of this.listeners) listener();
  }

  /** Returns whether a network load started. */
  visible(): boolean {
    if (!canAttempt(this.snapshot, this.deps.maxAttempts)) return false;
    if (this.deps.cache.has(this.src)) {
      this.set({ status: "loaded" });
      return false;
    }
    this.set({ status: "loading", attempts: this.snapshot.attempts + 1, inFlight: true });
    this.deps.loadImage(this.src).then(
      () => {
        this.deps.cache.add(this.src);
        this.set({ status: "loaded", inFlight: false });
      },
      () => this.set({ status: "error", inFlight: false }),
    );
    return true;
  }
}

export interface IntersectionLike {
  target: Element;
  isIntersecting: boolean;
}

export interface ObserverLike {
  observe(el: Element): void;
  unobserve(el: Element): void;
}

export type ObserverFactory = (callback: (entries: readonly IntersectionLike[]) => void) => ObserverLike;

/**
 * One observer for all images. An image is reported when it comes into range, so a failed one
 * is retried only after it leaves and comes back; reports are batched by the 200 ms throttle.
 */
export class LazyObserverHub {
  private observer: ObserverLike | null = null;
  private readonly callbacks = new Map<Element, () => void>();
  private readonly pending = new Set<Element>();
  private readonly throttle: ReturnType<typeof createLeadingThrottle>;

  constructor(
    private readonly factory: ObserverFactory,
    clock: Clock = realClock,
  ) {
    this.throttle = createLeadingThrottle(() => this.flush(), LAZY_IMAGE.throttleMs, clock);
  }

  observe(el: Element, onVisible: () => void) {
    this.observer ??= this.factory((entries) => this.onEntries(entries));
    this.callbacks.set(el, onVisible);
    this.observer.observe(el);
  }

  unobserve(el: Element) {
    this.callbacks.delete(el);
    this.pending.delete(el);
    this.observer?.unobserve(el);
  }

  private onEntries(entries: readonly IntersectionLike[]) {
    for (const entry of entries) {
      if (entry.isIntersecting) this.pending.add(entry.target);
      else this.pending.delete(entry.target);
    }
    if (this.pending.size > 0) this.throttle.call();
  }

  private flush() {
    const due = [...this.pending];
    this.pending.clear();
    for (const el of due) this.callbacks.get(el)?.();
  }
}

let sharedHub: LazyObserverHub | null | undefined;

function getSharedHub(): LazyObserverHub | null {
  if (sharedHub === undefined) {
    sharedHub =
      typeof IntersectionObserver === "undefined"
        ? null
        : new LazyObserverHub((callback) => new IntersectionObserver(callback, { rootMargin: preLoadRootMargin() }));
  }
  return sharedHub;
}

const noopSubscribe = () => () => {};

/** True while rendering on the server or hydrating, when browser-only state must not show. */
function useServerSnapshot(): boolean {
  return useSyncExternalStore(
    noopSubscribe,
    () => false,
    () => true,
  );
}

/** Transparent 1×1 GIF, as vue-lazyload's default loading image: keeps the box, shows the paper colour. */
const BLANK_IMAGE = "data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";

export interface LazyImageProps {
  src: string;
  alt: string;
  width: number;
  height: number;
  className?: string;
  /**
   * The page's main picture at the top of the page (its largest paint): in the page from the
   * start with `fetchpriority="high"`, so the browser fetches it with the document instead of
   * after the scripts and the observer. Only for a picture above the fold.
   */
  priority?: boolean;
}

export function LazyImage(props: LazyImageProps) {
  return props.priority ? <EagerImage {...props} /> : <ObservedImage {...props} />;
}

interface ImageBoxProps {
  status: LazyStatus;
  /** There from the first paint (`priority`): `lazy-image--eager`, not `--loaded`, so it does not fade in. */
  eager?: boolean;
  width: number;
  className?: string;
  ref?: Ref<HTMLSpanElement>;
  children: ReactNode;
}

/** The box both kinds of image sit in, with its state and the notice when the picture failed. */
function ImageBox({ status, eager = false, width, className, ref, children }: ImageBoxProps) {
  const state = eager && status === "loaded" ? "eager" : status;
  return (
    <span
      ref={ref}
      className={`lazy-image lazy-image--${state}${className ? ` ${className}` : ""}`}
      data-lazy={status}
      // The box is as wide as the picture (or its container): an image stretched to 100% inside
      // it keeps its height from the first paint, loaded or not.
      style={{ "--lazy-image-width": `${width}px` } as CSSProperties}
    >
      {children}
      {status === "error" && <span className="lazy-image__error">图片加载失败</span>}
    </span>
  );
}

/** The picture itself from the first byte, loaded at once (the `priority` case). */
function EagerImage({ src, alt, width, height, className }: LazyImageProps) {
  const [failed, setFailed] = useState(false);
  return (
    <ImageBox status={failed ? "error" : "loaded"} eager width={width} className={className}>
      <img
        className="lazy-image__img"
        src={src}
        alt={alt}
        width={width}
        height={height}
        fetchPriority="high"
        decoding="async"
        style={{ aspectRatio: `${width} / ${height}` }}
        onLoad={() => loadedImages.add(src)}
        onError={() => setFailed(true)}
      />
    </ImageBox>
  );
}

function ObservedImage({ src, alt, width, height, className }: LazyImageProps) {
  const serverSnapshot = useServerSnapshot();
  let [controller, setController] = useState(() => new LazyImageController(src, defaultDeps, !serverSnapshot));
  if (controller.src !== src) {
    controller = new LazyImageController(src, defaultDeps, !serverSnapshot);
    setController(controller);
  }
  const { status } = useSyncExternalStore(controller.subscribe, controller.getSnapshot, controller.getSnapshot);
  const boxRef = useRef<HTMLSpanElement | null>(null);

  useEffect(() => {
    const el = boxRef.current;
    if (!el || controller.settled) return;
    const hub = getSharedHub();
    if (!hub) {
      controller.visible();
      return;
    }
    hub.observe(el, () => controller.visible());
    const stop = controller.subscribe(() => {
      if (controller.settled) hub.unobserve(el);
    });
    return () => {
      stop();
      hub.unobserve(el);
    };
  }, [controller]);

  return (
    <ImageBox ref={boxRef} status={status} width={width} className={className}>
      <img
        className="lazy-image__img"
        src={status === "loaded" ? src : BLANK_IMAGE}
        alt={alt}
        width={width}
        height={height}
        decoding="async"
        style={{ aspectRatio: `${width} / ${height}` }}
      />
      {/* Readers without JavaScript (and crawlers that run none) get the picture itself; the
          browser ignores this copy and keeps the lazy states above. Dropped after hydration. */}
      {serverSnapshot ? (
        <noscript>
          <img
            className="lazy-image__img lazy-image__fallback"
            src={src}
            alt={alt}
            width={width}
            height={height}
            loading="lazy"
            decoding="async"
          />
        </noscript>
      ) : null}
    </ImageBox>
  );
}
