/**
 * The one countdown of the site (a payment's hold, a group's time left, a live lesson's start),
 * on the server's clock so every learner sees the same time left. Print it with
 * formatCountdown (shared/format.ts).
 */
import { useEffect, useRef, useState } from "react";

/** The server's clock: its time of answering (ISO), or a function that reads it. */
export type ServerClock = string | (() => number);

const readOnce = (clock: ServerClock) => (typeof clock === "string" ? Date.parse(clock) : clock());

/**
 * Milliseconds left until `until`, never below zero, ticking every second. The first render (on
 * the server and at hydration alike) reads the server's clock; then a time of answering is
 * carried on by the browser's clock, corrected by the difference it had from the server's.
 * `onEnd` runs once, when the time left reaches zero.
 */
export function useCountdown(until: string, clock: ServerClock, onEnd?: () => void): number {
  const end = Date.parse(until);
  const [left, setLeft] = useState(() => Math.max(0, end - readOnce(clock)));
  const onEndRef = useRef(onEnd);
  const ended = useRef(false);
  useEffect(() => {
    onEndRef.current = onEnd;
  }, [onEnd]);
  useEffect(() => {
    let now: () => number;
    if (typeof clock === "string") {
      const skew = Date.parse(clock) - Date.now();
      now = () => Date.now() + skew;
    } else {
      now = clock;
    }
    const tick = () => {
      const remaining = Math.max(0, end - now());
      setLeft(remaining);
      if (remaining === 0 && !ended.current) {
        ended.current = true;
        onEndRef.current?.();
      }
    };
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [end, clock]);
  return left;
}
