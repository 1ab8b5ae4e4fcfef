/**
 * What the player keeps in this browser: the speed and positions of viewers who are not signed
 * in (and of public lessons, which have no server-side progress). Storage may be missing or full
 * (private windows): then nothing is remembered and nothing breaks.
 */
import { DEFAULT_SPEED, PLAYBACK_SPEEDS } from "../../../shared/contracts/learning";

const SPEED_KEY = "mochi:player:speed";
const POSITION_PREFIX = "mochi:player:position:";
/** Positions older than this are forgotten, so the storage does not fill up with old lessons. */
const POSITION_TTL_MS = 180 * 86_400_000;

function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function snapSpeed(value: number): number {
  return (PLAYBACK_SPEEDS as readonly number[]).includes(value) ? value : DEFAULT_SPEED;
}

export function readLocalSpeed(): number {
  const raw = storage()?.getItem(SPEED_KEY);
  return raw ? snapSpeed(Number(raw)) : DEFAULT_SPEED;
}

export function writeLocalSpeed(speed: number): void {
  try {
    storage()?.setItem(SPEED_KEY, String(speed));
  } catch {
    // Full or refused: the speed is simply not remembered.
  }
}

export function readLocalPosition(key: string, now = Date.now()): number {
  const raw = storage()?.getItem(POSITION_PREFIX + key);
  if (!raw) return 0;
  try {
    const saved = JSON.parse(raw) as { position?: unknown; savedAt?: unknown };
    if (typeof saved.position !== "number" || typeof saved.savedAt !== "number") return 0;
    if (now - saved.savedAt > POSITION_TTL_MS) return 0;
    return saved.position;
  } catch {
    return 0;
  }
}

export function writeLocalPosition(key: string, position: number, now = Date.now()): void {
  try {
    storage()?.setItem(POSITION_PREFIX + key, JSON.stringify({ position: Math.floor(position), savedAt: now }));
  } catch {
    // As above.
  }
}
