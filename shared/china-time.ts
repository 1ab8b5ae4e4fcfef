/**
 * Time as learners in China read it (Beijing time), the same on the server, in every browser and
 * whatever zone the host runs in. Asia/Shanghai has kept UTC+8 without daylight saving since
 * 1991, so a fixed offset is exact for every date this site handles and needs no time-zone data.
 */

const CHINA_OFFSET_MS = 8 * 3_600_000;
const DAY_MS = 86_400_000;

/** An instant: a Date, milliseconds since the epoch, or an ISO string. */
export type Instant = Date | number | string;

const msOf = (at: Instant): number =>
  at instanceof Date ? at.getTime() : typeof at === "number" ? at : Date.parse(at);

/** The instant moved by 8 hours, so that its UTC fields read as the China wall clock. */
const shifted = (at: Instant) => new Date(msOf(at) + CHINA_OFFSET_MS);

/** The China calendar date of an instant: "2026-11-22". */
export function chinaDate(at: Instant): string {
  return shifted(at).toISOString().slice(0, 10);
}

/** The China wall-clock time of an instant to the second, without a zone: "2026-11-22T09:30:05". */
export function chinaDateTime(at: Instant): string {
  return shifted(at).toISOString().slice(0, 19);
}

export interface ChinaParts {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The fields of the China wall clock at an instant. */
export function chinaParts(at: Instant): ChinaParts {
  const d = shifted(at);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

/** The start (China midnight) and the end (the next China midnight) of the China day that holds `at`. */
export function chinaDay(at: Instant): { start: Date; end: Date } {
  const local = msOf(at) + CHINA_OFFSET_MS;
  const start = local - (((local % DAY_MS) + DAY_MS) % DAY_MS) - CHINA_OFFSET_MS;
  return { start: new Date(start), end: new Date(start + DAY_MS) };
}

/** A calendar date plus whole days: "2026-11-25" + 3 → "2026-11-28". */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
