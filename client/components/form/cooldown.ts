/**
 * Resend countdowns of verification codes, keyed by what the code goes to ("sms:138…"). Kept
 * outside the panels so switching tabs or closing the dialog does not reset a countdown the
 * server still enforces.
 */
import { useSyncExternalStore } from "react";

const endsAt = new Map<string, number>();
const listeners = new Set<() => void>();
let ticker: ReturnType<typeof setInterval> | null = null;

function secondsLeft(key: string): number {
  const end = endsAt.get(key);
  return end ? Math.max(0, Math.ceil((end - Date.now()) / 1000)) : 0;
}

function notify() {
  for (const listener of listeners) listener();
}

function tick() {
  notify();
  const now = Date.now();
  for (const [key, end] of endsAt) if (end <= now) endsAt.delete(key);
  if (endsAt.size === 0 && ticker) {
    clearInterval(ticker);
    ticker = null;
  }
}

export function startCooldown(key: string, seconds: number) {
  if (!(seconds > 0)) return;
  endsAt.set(key, Date.now() + seconds * 1000);
  // A quarter second, so the display never lags the real second by much.
  ticker ??= setInterval(tick, 250);
  notify();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Whole seconds until a new code may be asked for `key` (0: now). */
export function useCooldown(key: string): number {
  return useSyncExternalStore(
    subscribe,
    () => secondsLeft(key),
    () => 0,
  );
}
