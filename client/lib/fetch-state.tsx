/**
 * Component-level data fetching with the semantics of the Nuxt 2.12+ `fetch()` hook
 * (reference §2): deduplicated refetch, at least 200 ms of "pending" to avoid flashes,
 * normalised errors that never throw, and server results reused on hydration.
 */
import { createContext, type ReactNode, useContext, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { FETCH_MIN_DURATION_MS } from "../../shared/constants";
import { type NormalizedError, normalizeError } from "../../shared/errors";

export interface FetchStateSnapshot<T> {
  pending: boolean;
  error: NormalizedError | null;
  timestamp: number;
  data: T | undefined;
}

export interface FetchState<T> extends FetchStateSnapshot<T> {
  refetch: () => Promise<void>;
}

export interface FetchStateOptions {
  /** false: the server never fetches this key, so the browser always does. */
  onServer?: boolean;
  minDurationMs?: number;
}

export interface FetchClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
}

const realClock: FetchClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
};

/** Marks a server-side failure in the hydration map, like Nuxt's `{ _error }` payload. */
export interface FetchStateErrorEntry {
  __fetchError: NormalizedError;
}

export function fetchStateErrorEntry(err: unknown): FetchStateErrorEntry {
  return { __fetchError: normalizeError(err) };
}

function isErrorEntry(value: unknown): value is FetchStateErrorEntry {
  return typeof value === "object" && value !== null && "__fetchError" in value;
}

export type FetchInitial<T> = { data: T } | { error: NormalizedError };

/** The framework-free core: one instance per hook, driven by its own clock for tests. */
export class FetchController<T> {
  private snapshot: FetchStateSnapshot<T>;
  private inFlight: Promise<void> | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly fetcher: () => Promise<T> | T,
    private readonly minDurationMs: number = FETCH_MIN_DURATION_MS,
    initial?: FetchInitial<T>,
    private readonly clock: FetchClock = realClock,
  ) {
    const timestamp = clock.now();
    if (!initial) this.snapshot = { pending: true, error: null, timestamp, data: undefined };
    else if ("error" in initial) this.snapshot = { pending: false, error: initial.error, timestamp, data: undefined };
    else this.snapshot = { pending: false, error: null, timestamp, data: initial.data };
  }

  getSnapshot = (): FetchStateSnapshot<T> => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Concurrent calls share the running request instead of starting another. */
  fetch = (): Promise<void> => {
    if (this.inFlight) return this.inFlight;
    const run = this.run().finally(() => {
      this.inFlight = null;
    });
    this.inFlight = run;
    return run;
  };

  private set(next: Partial<FetchStateSnapshot<T>>) {
    this.snapshot = { ...this.snapshot, ...next };
    for (const listener of this.listeners) listener();
  }

  private async run(): Promise<void> {
    this.set({ pending: true, error: null });
    const startedAt = this.clock.now();
    let error: NormalizedError | null = null;
    let data = this.snapshot.data;
    try {
      data = await this.fetcher();
    } catch (err) {
      error = normalizeError(err);
    }
    const wait = this.minDurationMs - (this.clock.now() - startedAt);
    if (wait > 0) await new Promise<void>((resolve) => this.clock.setTimeout(resolve, wait));
    this.set({ pending: false, error, data, timestamp: this.clock.now() });
  }
}

interface FetchStateCache {
  entries: ReadonlyMap<string, unknown>;
  /** Keys already hydrated: a later mount with the same key is a client navigation and fetches. */
  consumed: Set<string>;
}

const FetchStateContext = createContext<FetchStateCache | null>(null);

/**
 * Results the server fetched, keyed like the hooks that use them; read once at hydration
 * (a later change of `value` is ignored). Use `fetchStateErrorEntry` for a failed fetch.
 */
export function FetchStateProvider({
  value,
  children,
}: {
  value: ReadonlyMap<string, unknown> | Readonly<Record<string, unknown>>;
  children?: ReactNode;
}) {
  const [cache] = useState<FetchStateCache>(() => ({
    entries: value instanceof Map ? value : new Map(Object.entries(value)),
    consumed: new Set(),
  }));
  return <FetchStateContext.Provider value={cache}>{children}</FetchStateContext.Provider>;
}

function initialFrom<T>(cache: FetchStateCache | null, key: string): FetchInitial<T> | undefined {
  if (!cache || cache.consumed.has(key) || !cache.entries.has(key)) return undefined;
  const value = cache.entries.get(key);
  if (isErrorEntry(value)) return { error: value.__fetchError };
  return { data: value as T };
}

interface Slot<T> {
  key: string;
  controller: FetchController<T>;
  fromServer: boolean;
}

export function useFetchState<T>(
  key: string,
  fetcher: () => Promise<T> | T,
  { onServer = true, minDurationMs = FETCH_MIN_DURATION_MS }: FetchStateOptions = {},
): FetchState<T> {
  const cache = useContext(FetchStateContext);
  const fetcherRef = useRef(fetcher);

  const createSlot = (forKey: string): Slot<T> => {
    const initial = onServer ? initialFrom<T>(cache, forKey) : undefined;
    const controller = new FetchController<T>(() => fetcherRef.current(), minDurationMs, initial);
    return { key: forKey, controller, fromServer: initial !== undefined };
  };

  let [slot, setSlot] = useState(() => createSlot(key));
  if (slot.key !== key) {
    // A new key is new data: start over, as a remount would.
    slot = createSlot(key);
    setSlot(slot);
  }

  const snapshot = useSyncExternalStore(
    slot.controller.subscribe,
    slot.controller.getSnapshot,
    slot.controller.getSnapshot,
  );

  useEffect(() => {
    fetcherRef.current = fetcher;
  });

  useEffect(() => {
    if (slot.fromServer) {
      cache?.consumed.add(slot.key);
      return;
    }
    void slot.controller.fetch();
  }, [slot, cache]);

  return { ...snapshot, refetch: slot.controller.fetch };
}
