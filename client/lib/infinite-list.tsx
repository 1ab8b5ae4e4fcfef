/**
 * Infinite list loader with the behaviour of vue-infinite-loading 2.4 (reference §6): a load
 * starts when the loader is within 100 px of the viewport bottom, checks are throttled 50 ms
 * (trailing), the page hands back loaded / complete / error / reset, and the loader keeps
 * loading while it is still in range so a short page fills the screen.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { INFINITE_LIST } from "../../shared/constants";

export type InfiniteStatus = "ready" | "loading" | "complete" | "error";

export interface InfiniteListState {
  status: InfiniteStatus;
  /** No loaded() since the last reset: complete() then means "no results" rather than "no more". */
  isFirstLoad: boolean;
  /** Counts load attempts and resets; answers from an older attempt are ignored. */
  attempt: number;
}

export type InfiniteListAction =
  | { type: "load" }
  | { type: "loaded"; attempt: number }
  | { type: "complete"; attempt: number }
  | { type: "error"; attempt: number }
  | { type: "reset" };

export const initialInfiniteListState: InfiniteListState = { status: "ready", isFirstLoad: true, attempt: 0 };

export function infiniteListReducer(state: InfiniteListState, action: InfiniteListAction): InfiniteListState {
  switch (action.type) {
    case "load":
      // Scrolling loads only from ready; the Retry button loads from error.
      if (state.status !== "ready" && state.status !== "error") return state;
      return { ...state, status: "loading", attempt: state.attempt + 1 };
    case "reset":
      return { status: "ready", isFirstLoad: true, attempt: state.attempt + 1 };
    case "loaded":
      if (action.attempt !== state.attempt) return state;
      if (state.status === "loading") return { ...state, status: "ready", isFirstLoad: false };
      return state.isFirstLoad ? { ...state, isFirstLoad: false } : state;
    case "complete":
      if (action.attempt !== state.attempt || state.status === "complete") return state;
      return { ...state, status: "complete" };
    case "error":
      if (action.attempt !== state.attempt || state.status === "error") return state;
      return { ...state, status: "error" };
  }
}

export interface InfiniteListTexts {
  readonly noResults: string;
  readonly noMore: string;
  readonly error: string;
  readonly retry: string;
}

/** The status line under the list, or null when nothing is to be said. */
export function infiniteStatusText(state: InfiniteListState, texts: InfiniteListTexts = INFINITE_LIST.texts) {
  if (state.status === "complete") return state.isFirstLoad ? texts.noResults : texts.noMore;
  if (state.status === "error") return texts.error;
  return null;
}

/** vue-infinite-loading's distance for direction bottom: loader top minus viewport bottom. */
export function isWithinDistance(loaderTop: number, viewportHeight: number, distance: number): boolean {
  return loaderTop - viewportHeight <= distance;
}

type Timers = Pick<typeof globalThis, "setTimeout" | "clearTimeout">;

/** Runs `fn` once, `ms` after the first call; calls while it waits are dropped. */
export function createTrailingThrottle(fn: () => void, ms: number, timers: Timers = globalThis) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    schedule() {
      if (timer !== undefined) return;
      timer = timers.setTimeout(() => {
        timer = undefined;
        fn();
      }, ms);
    },
    cancel() {
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** What `onLoad` receives, as vue-infinite-loading's `$state`. */
export interface InfiniteLoadState {
  loaded(): void;
  complete(): void;
  error(): void;
  reset(): void;
}

/** State plus the side effect of a load, kept outside React so two triggers in one tick load once. */
export class InfiniteListMachine {
  private current: InfiniteListState = initialInfiniteListState;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly onLoad: (state: InfiniteLoadState) => void) {}

  getState = (): InfiniteListState => this.current;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  dispatch(action: InfiniteListAction) {
    const next = infiniteListReducer(this.current, action);
    if (next === this.current) return;
    this.current = next;
    for (const listener of this.listeners) listener();
  }

  /** Starts a load when the state allows it; returns whether it did. */
  attemptLoad(): boolean {
    const before = this.current;
    this.dispatch({ type: "load" });
    if (this.current === before) return false;
    this.onLoad(this.handleFor(this.current.attempt));
    return true;
  }

  reset() {
    this.dispatch({ type: "reset" });
  }

  private handleFor(attempt: number): InfiniteLoadState {
    return {
      loaded: () => this.dispatch({ type: "loaded", attempt }),
      complete: () => this.dispatch({ type: "complete", attempt }),
      error: () => this.dispatch({ type: "error", attempt }),
      reset: () => this.reset(),
    };
  }
}

export interface InfiniteListOptions {
  /** Changing it resets the loader, e.g. when a filter changes the list (vue's `identifier`). */
  identifier?: unknown;
  distance?: number;
}

export function useInfiniteList(
  onLoad: (state: InfiniteLoadState) => void,
  { identifier, distance = INFINITE_LIST.distance }: InfiniteListOptions = {},
) {
  const onLoadRef = useRef(onLoad);
  const [machine] = useState(() => new InfiniteListMachine((s) => onLoadRef.current(s)));
  const state = useSyncExternalStore(machine.subscribe, machine.getState, machine.getState);
  const sentinelRef = useRef<HTMLDivElement | null>(null);
  const identifierRef = useRef(identifier);

  // Measured rather than taken from the observer, whose last entry is stale after new items render.
  // Only from ready: after an error, loading again is the Retry button's job.
  const check = () => {
    const el = sentinelRef.current;
    if (!el || machine.getState().status !== "ready" || el.offsetWidth + el.offsetHeight === 0) return;
    if (isWithinDistance(el.getBoundingClientRect().top, window.innerHeight, distance)) machine.attemptLoad();
  };
  const checkRef = useRef(check);

  useEffect(() => {
    onLoadRef.current = onLoad;
    checkRef.current = check;
  });

  useEffect(() => {
    const el = sentinelRef.current;
    if (!el || typeof IntersectionObserver === "undefined") return;
    const throttle = createTrailingThrottle(() => checkRef.current(), INFINITE_LIST.throttleMs);
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) throttle.schedule();
      },
      { rootMargin: `0px 0px ${distance}px 0px` },
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
      throttle.cancel();
    };
  }, [distance]);

  // After loaded() or reset(): load again while still in range, as the observer won't re-fire.
  useEffect(() => {
    if (state.status === "ready") checkRef.current();
  }, [state]);

  useEffect(() => {
    if (Object.is(identifierRef.current, identifier)) return;
    identifierRef.current = identifier;
    machine.reset();
  }, [identifier, machine]);

  return {
    state,
    text: infiniteStatusText(state),
    sentinelRef,
    retry: () => {
      machine.attemptLoad();
    },
  };
}

export interface InfiniteListProps extends InfiniteListOptions {
  onLoad: (state: InfiniteLoadState) => void;
  className?: string;
}

/** Place it after the list items; it is the sentinel and shows the spinner and status line. */
export function InfiniteList({ onLoad, identifier, distance, className }: InfiniteListProps) {
  const { state, text, sentinelRef, retry } = useInfiniteList(onLoad, { identifier, distance });
  return (
    <div
      ref={sentinelRef}
      className={className ? `infinite-list ${className}` : "infinite-list"}
      data-status={state.status}
      aria-busy={state.status === "loading"}
      aria-live="polite"
    >
      {state.status === "loading" && <span className="infinite-list__spinner" aria-hidden="true" />}
      {text !== null && <p className={`infinite-list__status infinite-list__status--${state.status}`}>{text}</p>}
      {state.status === "error" && (
        <button type="button" className="btn-try-infinite" onClick={retry}>
          {INFINITE_LIST.texts.retry}
        </button>
      )}
    </div>
  );
}
