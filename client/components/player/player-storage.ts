/**
 * What the player keeps in this browser: the speed of viewers who are not signed in, and the
 * last position of every video (for signed-in viewers too: a report sent as the page goes away
 * may reach the server after the reloaded page asked for the position, and a crashed browser
 * sends none). Storage may be missing or full
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

export interface LocalPosition {
  position: number;
  /** Milliseconds since the epoch. */
  savedAt: number;
}

export function readLocalEntry(key: string, now = Date.now()): LocalPosition | null {
  const raw = storage()?.getItem(POSITION_PREFIX + key);
  if (!raw) return null;
  try {
    const saved = JSON.parse(raw) as { position?: unknown; savedAt?: unknown };
    if (typeof saved.position !== "number" || typeof saved.savedAt !== "number") return null;
    if (now - saved.savedAt > POSITION_TTL_MS) return null;
    return { position: saved.position, savedAt: saved.savedAt };
  } catch {
    return null;
  }
}

export function readLocalPosition(key: string, now = Date.now()): number {
  return readLocalEntry(key, now)?.position ?? 0;
}

/**
 * Where to start: the server's position, unless this browser kept a newer one (its report may
 * still be on its way); without a server position, the browser's.
 */
export function startingPosition(
  server: { position: number; savedAt: string | null } | null,
  local: LocalPosition | null,
): number {
  if (!server) return local?.position ?? 0;
  if (local && (server.savedAt === null || local.savedAt > Date.parse(server.savedAt))) return local.position;
  return server.position;
}

export function writeLocalPosition(key: string, position: number, now = Date.now()): void {
  try {
    storage()?.setItem(POSITION_PREFIX + key, JSON.stringify({ position: Math.floor(position), savedAt: now }));
  } catch {
    // As above.
  }
}
