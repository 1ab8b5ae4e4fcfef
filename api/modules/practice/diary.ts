/**
 * The practice diary (DESIGN §4): one entry per learner and China date. Today's entry can be
 * edited all day; a missed day can be made up the next day (and only then); nothing earlier.
 *
 * The daily check-in is this entry: the first write of today's entry, whoever makes it (the
 * diary form, tracing at /calmness, the wallet's 签到 button, an activity), earns the
 * 每日签到 coins through the ledger with the date as its key, so there is one rule and at most
 * one ledger line per China day, also when several writes race on PostgreSQL (the entry row is
 * upserted and the coin wallet row locked in the same transaction). A made-up day earns no coins.
 */
import type { Kysely, Transaction } from "kysely";
import { addDays, chinaDate } from "../../../shared/china-time";
import type { DiaryEntry, DiaryEntryInput, DiarySummary } from "../../../shared/contracts/practice";
import { diaryEntryInputSchema, DIARY_MAX_MINUTES } from "../../../shared/contracts/practice";
import type { CheckInResult } from "../../../shared/contracts/wallet";
import type { ApiContext } from "../../context";
import type { DB } from "../../db/schema";
import { ApiError } from "../../http";
import { awardLearningCoins } from "../wallet/hooks";

type Db = Kysely<DB> | Transaction<DB>;

export type DiarySource = "diary" | "trace" | "check_in" | "activity";

export interface DiaryAddition {
  /** Whole minutes to add. */
  minutes?: number;
  /** Seconds of tracing to add (kept apart from the learner's own minutes). */
  seconds?: number;
  /** Characters practised (Han characters; repeats and others are dropped). */
  characters?: string | string[];
  source: DiarySource;
}

export interface DiaryAddResult {
  /** Coins the entry earned now (0 when today's check-in had already paid, or for another day). */
  coins: number;
  balance: number;
}

const HAN = /\p{Script=Han}/u;

/** Union of two character strings, first occurrence order, Han only. */
export function mergeCharacters(a: string, b: string | string[]): string {
  const extra = Array.isArray(b) ? b.join("") : b;
  return [...new Set([...a, ...extra].filter((c) => HAN.test(c)))].join("");
}

const capMinutes = (n: number) => Math.min(DIARY_MAX_MINUTES, Math.max(0, Math.round(n)));

/**
 * Adds to a learner's entry for `date` (created if missing) inside the caller's transaction, and
 * pays the day's check-in coins when `date` is today's China date. Other modules call this (e.g.
 * an activity's check-in); the caller decides whether the date may still be written.
 */
export async function addToDiary(
  trx: Transaction<DB>,
  userId: number,
  date: string,
  add: DiaryAddition,
  now: Date = new Date(),
): Promise<DiaryAddResult> {
  const characters = mergeCharacters("", add.characters ?? "");
  const traced = add.source === "trace" ? characters : "";
  const minutes = capMinutes(add.minutes ?? 0);
  const seconds = Math.max(0, Math.round(add.seconds ?? 0));
  await trx
    .insertInto("practice_diary")
    .values({
      user_id: userId,
      day: date,
      minutes,
      traced_seconds: seconds,
      characters,
      traced_characters: traced,
      made_up: date < chinaDate(now),
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.columns(["user_id", "day"]).doUpdateSet((eb) => ({
        minutes: eb.fn("least", [eb.lit(DIARY_MAX_MINUTES), eb("practice_diary.minutes", "+", minutes)]),
        traced_seconds: eb("practice_diary.traced_seconds", "+", seconds),
        updated_at: now,
      })),
    )
    .execute();
  if (characters) {
    // Read under the row lock the upsert holds, then write the union.
    const row = await trx
      .selectFrom("practice_diary")
      .select(["characters", "traced_characters"])
      .where("user_id", "=", userId)
      .where("day", "=", date)
      .executeTakeFirstOrThrow();
    await trx
      .updateTable("practice_diary")
      .set({
        characters: mergeCharacters(row.characters, characters),
        traced_characters: mergeCharacters(row.traced_characters, traced),
      })
      .where("user_id", "=", userId)
      .where("day", "=", date)
      .execute();
  }
  return payCheckIn(trx, userId, date, now);
}

async function payCheckIn(trx: Transaction<DB>, userId: number, date: string, now: Date): Promise<DiaryAddResult> {
  if (date !== chinaDate(now)) return { coins: 0, balance: 0 };
  const result = await awardLearningCoins(trx, {
    userId,
    rule: "daily_check_in",
    idempotencyKey: date,
    refType: "check_in",
    refId: date,
    now,
  });
  return { coins: result.applied ? (result.entry?.amount ?? 0) : 0, balance: result.balance };
}

/** Why a date cannot be written now, or null when it can. */
export function writeRefusal(
  date: string,
  now: Date,
  existing: { made_up: boolean; created_at: Date } | undefined,
): string | null {
  const today = chinaDate(now);
  if (date === today) return null;
  if (date > today) return "还没到这一天，不能提前写日记";
  if (date === addDays(today, -1)) {
    if (!existing) return null;
    // A made-up entry stays editable the day it was made up; one written on its own day is closed.
    if (existing.made_up && chinaDate(existing.created_at) === today) return null;
    return "昨天的日记已经写过了，只能修改今天的日记";
  }
  return "只能补写昨天漏掉的一天，更早的日子不能补写";
}

interface EntryRow {
  day: string;
  minutes: number;
  traced_seconds: number;
  characters: string;
  traced_characters: string;
  note: string;
  photo_id: string | null;
  made_up: boolean;
  created_at: Date;
}

export const diaryPhotoUrl = (id: string) => `/api/practice/diary/photos/${id}/display`;
export const diaryThumbUrl = (id: string) => `/api/practice/diary/photos/${id}/thumb`;

export const tracedMinutes = (seconds: number) => Math.ceil(seconds / 60);

export function entryView(row: EntryRow, now: Date): DiaryEntry {
  const traced = tracedMinutes(row.traced_seconds);
  return {
    date: row.day,
    minutes: row.minutes + traced,
    ownMinutes: row.minutes,
    tracedMinutes: traced,
    characters: row.characters,
    tracedCharacters: row.traced_characters,
    note: row.note,
    photo: row.photo_id ? { url: diaryPhotoUrl(row.photo_id), thumbUrl: diaryThumbUrl(row.photo_id) } : null,
    madeUp: row.made_up,
    editable: writeRefusal(row.day, now, row) === null,
  };
}

const entryColumns = [
  "day",
  "minutes",
  "traced_seconds",
  "characters",
  "traced_characters",
  "note",
  "photo_id",
  "made_up",
  "created_at",
] as const;

async function entryRow(db: Db, userId: number, date: string): Promise<EntryRow | undefined> {
  return db
    .selectFrom("practice_diary")
    .select(entryColumns)
    .where("user_id", "=", userId)
    .where("day", "=", date)
    .executeTakeFirst();
}

/** Saves the learner's own fields of an entry (today's, or yesterday's made up). */
export async function saveEntry(
  ctx: ApiContext,
  userId: number,
  date: string,
  raw: DiaryEntryInput,
): Promise<{ entry: DiaryEntry; coins: number; message: string }> {
  const input = diaryEntryInputSchema.parse(raw);
  const now = ctx.now();
  const result = await ctx.database.db.transaction().execute(async (trx) => {
    const existing = await entryRow(trx, userId, date);
    const refusal = writeRefusal(date, now, existing);
    if (refusal) throw new ApiError(409, "diary_closed", refusal);
    const paid = await addToDiary(trx, userId, date, { source: "diary" }, now);
    await trx
      .updateTable("practice_diary")
      .set({
        minutes: input.minutes,
        characters: input.characters,
        note: input.note,
        updated_at: now,
        ...(input.keepPhoto ? {} : { photo_id: null }),
      })
      .where("user_id", "=", userId)
      .where("day", "=", date)
      .execute();
    return paid;
  });
  const row = (await entryRow(ctx.database.db, userId, date))!;
  const message =
    result.coins > 0
      ? `日记已保存，今日打卡获得 ${result.coins} 金币`
      : date === chinaDate(now)
        ? "日记已保存"
        : "已补写昨天的日记";
  return { entry: entryView(row, now), coins: result.coins, message };
}

/** Tracing at /calmness: a finished character adds its time and itself to today's entry. */
export async function recordTrace(
  ctx: ApiContext,
  userId: number,
  input: { char: string; seconds: number },
): Promise<{ entry: DiaryEntry; coins: number; message: string }> {
  const now = ctx.now();
  const today = chinaDate(now);
  const paid = await ctx.database.db
    .transaction()
    .execute((trx) =>
      addToDiary(trx, userId, today, { seconds: input.seconds, characters: input.char, source: "trace" }, now),
    );
  const row = (await entryRow(ctx.database.db, userId, today))!;
  return {
    entry: entryView(row, now),
    coins: paid.coins,
    message:
      paid.coins > 0
        ? `「${input.char}」已记入今天的日记，打卡获得 ${paid.coins} 金币`
        : `「${input.char}」已记入今天的日记`,
  };
}

/**
 * The wallet's 签到 button: today's entry (created empty if nothing was practised yet) pays the
 * 每日签到 coins, once per China day, whichever writes the entry first.
 */
export async function checkInToday(ctx: ApiContext, userId: number): Promise<CheckInResult> {
  const now = ctx.now();
  const result = await ctx.database.db
    .transaction()
    .execute((trx) => addToDiary(trx, userId, chinaDate(now), { source: "check_in" }, now));
  if (result.coins <= 0) {
    return { already: true, earned: 0, balance: result.balance, message: "今天已经签到过了，明天再来吧" };
  }
  return {
    already: false,
    earned: result.coins,
    balance: result.balance,
    message: `签到成功，获得 ${result.coins} 金币`,
  };
}

/* ---------------- summary ---------------- */

const dayNumber = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / 86_400_000);

/**
 * Streaks over a learner's practice dates: the longest run of consecutive dates, and the current
 * one — the run that ends today, or yesterday while today is still open.
 */
export function streaks(dates: string[], today: string): { current: number; longest: number } {
  const days = [...new Set(dates.map(dayNumber))].sort((a, b) => a - b);
  let longest = 0;
  let run = 0;
  let prev = Number.NaN;
  for (const d of days) {
    run = d === prev + 1 ? run + 1 : 1;
    longest = Math.max(longest, run);
    prev = d;
  }
  const set = new Set(days);
  const t = dayNumber(today);
  let cursor = set.has(t) ? t : t - 1;
  let current = 0;
  while (set.has(cursor)) {
    current++;
    cursor--;
  }
  return { current, longest };
}

/** Monday of the week that holds `date`. */
export function weekStart(date: string): string {
  const weekday = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(date, -weekday);
}

export async function diarySummary(ctx: ApiContext, userId: number): Promise<DiarySummary> {
  const db = ctx.database.db;
  const now = ctx.now();
  const today = chinaDate(now);
  const rows = await db
    .selectFrom("practice_diary")
    .select(entryColumns)
    .where("user_id", "=", userId)
    .orderBy("day", "desc")
    .execute();
  const entries = rows.map((r) => entryView(r, now));
  const heatFrom = addDays(weekStart(today), -52 * 7);
  const weeksFrom = addDays(weekStart(today), -11 * 7);
  const weekly = new Map<string, number>();
  for (let i = 0; i < 12; i++) weekly.set(addDays(weeksFrom, i * 7), 0);
  const counts = new Map<string, number>();
  let characters = 0;
  for (const e of entries) {
    const week = weekStart(e.date);
    if (weekly.has(week)) weekly.set(week, weekly.get(week)! + e.minutes);
    characters += [...e.characters].length;
    for (const c of e.characters) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  const yesterday = addDays(today, -1);
  const yesterdayRow = rows.find((r) => r.day === yesterday);
  const coinsToday = await db
    .selectFrom("wallet_entries")
    .select("id")
    .where("user_id", "=", userId)
    .where("currency", "=", "coin")
    .where("reason", "=", "daily_check_in")
    .where("idempotency_key", "=", today)
    .executeTakeFirst();
  return {
    today,
    makeUpDate: yesterdayRow ? null : yesterday,
    streak: streaks(
      rows.map((r) => r.day),
      today,
    ),
    totals: { days: rows.length, minutes: entries.reduce((s, e) => s + e.minutes, 0), characters },
    topCharacters: [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([char, days]) => ({ char, days })),
    heat: entries.filter((e) => e.date >= heatFrom).map((e) => ({ date: e.date, minutes: e.minutes })),
    weeks: [...weekly].map(([start, minutes]) => ({ start, minutes })),
    entries: entries.slice(0, 60),
    coinsToday: Boolean(coinsToday),
  };
}

/* ---------------- photo ---------------- */

export async function photoOf(
  ctx: ApiContext,
  userId: number,
  photoId: string,
  size: "display" | "thumb",
): Promise<Buffer | null> {
  const row = await ctx.database.db
    .selectFrom("practice_photos")
    .select(size === "display" ? "display_bytes as bytes" : "thumb_bytes as bytes")
    .where("id", "=", photoId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ? Buffer.from(row.bytes) : null;
}
