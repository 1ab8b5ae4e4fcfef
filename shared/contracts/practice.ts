/** The practice gallery of /calmness: the characters of 千字文, one card each. */
import { z } from "zod";

export const practiceCharacterSchema = z.object({
  /** Position in the text, from 0. */
  index: z.number().int().nonnegative(),
  char: z.string().length(1),
  /** The four-character phrase it belongs to. */
  phrase: z.string(),
});
export type PracticeCharacter = z.infer<typeof practiceCharacterSchema>;

const badQuery = { error: "查询参数不正确" };
export const practicePageQuerySchema = z.strictObject(
  {
    offset: z.coerce.number(badQuery).int(badQuery).min(0, badQuery).max(100_000, badQuery).default(0),
    limit: z.coerce.number(badQuery).int(badQuery).min(1, badQuery).max(48, badQuery).default(24),
  },
  badQuery,
);
export type PracticePageQuery = z.infer<typeof practicePageQuerySchema>;

export const practicePageSchema = z.object({
  items: z.array(practiceCharacterSchema),
  total: z.number().int().nonnegative(),
  /** Distinct characters of the text with stroke data (the text repeats some). */
  distinct: z.number().int().nonnegative(),
  nextOffset: z.number().int().nonnegative().nullable(),
});
export type PracticePage = z.infer<typeof practicePageSchema>;

export const practiceTodaySchema = z.object({
  date: z.string(),
  character: practiceCharacterSchema,
});
export type PracticeToday = z.infer<typeof practiceTodaySchema>;

/** Address of the generated practice sheet (米字格) for one character. */
export function glyphUrl(char: string): string {
  return `/media/glyph/${char.codePointAt(0)?.toString(16) ?? "0"}.svg`;
}

/** Address of a character's stroke data (hanzi-writer-data JSON), served per character on demand. */
export function strokesUrl(char: string): string {
  return `/api/practice/strokes/${encodeURIComponent(char)}`;
}

/** One CJK character (the stroke data covers the common ones). */
export const HAN = /^\p{Script=Han}$/u;
const badChars = "只能填写汉字，最多 60 个";
export const DIARY_MAX_CHARACTERS = 60;
export const DIARY_MAX_NOTE = 500;
export const DIARY_MAX_MINUTES = 1440;

/** The characters of an entry: typed or picked, Han only, each once, in the order first written. */
export const diaryCharactersSchema = z
  .string(badChars)
  .max(400, badChars)
  .transform((s) => [...new Set([...s].filter((c) => HAN.test(c)))].join(""))
  .refine((s) => [...s].length <= DIARY_MAX_CHARACTERS, badChars);

export const diaryEntryInputSchema = z.strictObject(
  {
    minutes: z
      .number("请填写练习时长（分钟）")
      .int("练习时长请填整数分钟")
      .min(0, "练习时长不能是负数")
      .max(DIARY_MAX_MINUTES, "一天最多 1440 分钟"),
    characters: diaryCharactersSchema.default(""),
    note: z.string("心得请填写文字").trim().max(DIARY_MAX_NOTE, `心得最多 ${DIARY_MAX_NOTE} 字`).default(""),
    /** Keep the photo (true), or remove it (false). A new photo is uploaded on its own. */
    keepPhoto: z.boolean().default(true),
  },
  { error: "日记内容不正确" },
);
export type DiaryEntryInput = z.input<typeof diaryEntryInputSchema>;

export const diaryDateParamSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "日期格式应为 YYYY-MM-DD");

export const diaryEntrySchema = z.object({
  date: z.string(),
  /** All minutes of the day: what the learner entered plus the tracing at /calmness. */
  minutes: z.number().int(),
  /** What the learner entered themselves. */
  ownMinutes: z.number().int(),
  tracedMinutes: z.number().int(),
  characters: z.string(),
  tracedCharacters: z.string(),
  note: z.string(),
  photo: z.object({ url: z.string(), thumbUrl: z.string() }).nullable(),
  madeUp: z.boolean(),
  editable: z.boolean(),
});
export type DiaryEntry = z.infer<typeof diaryEntrySchema>;

export const diarySummarySchema = z.object({
  today: z.string(),
  /** Yesterday's date while it can still be made up (missed, and today is the next day), else null. */
  makeUpDate: z.string().nullable(),
  streak: z.object({ current: z.number().int(), longest: z.number().int() }),
  totals: z.object({ days: z.number().int(), minutes: z.number().int(), characters: z.number().int() }),
  topCharacters: z.array(z.object({ char: z.string(), days: z.number().int() })),
  /** Minutes per China date over the last 53 weeks (days without an entry are left out). */
  heat: z.array(z.object({ date: z.string(), minutes: z.number().int() })),
  /** The last 12 weeks, Monday first, oldest first. */
  weeks: z.array(z.object({ start: z.string(), minutes: z.number().int() })),
  entries: z.array(diaryEntrySchema),
  coinsToday: z.boolean(),
});
export type DiarySummary = z.infer<typeof diarySummarySchema>;

export const diarySaveResultSchema = z.object({
  entry: diaryEntrySchema,
  coins: z.number().int(),
  message: z.string(),
});
export type DiarySaveResult = z.infer<typeof diarySaveResultSchema>;

export const traceInputSchema = z.strictObject(
  {
    char: z.string("请选择一个字").regex(HAN, "请选择一个汉字"),
    /** Seconds spent on the character (capped: a forgotten tab does not count hours). */
    seconds: z.number("用时不正确").int("用时不正确").min(1, "用时不正确").max(1800, "用时不正确"),
  },
  { error: "练习记录不正确" },
);
export type TraceInput = z.infer<typeof traceInputSchema>;

export const myPracticeCharactersSchema = z.object({
  courses: z.array(z.object({ courseId: z.number().int(), title: z.string(), characters: z.string() })),
});
export type MyPracticeCharacters = z.infer<typeof myPracticeCharactersSchema>;

/* ---------------- calendar ---------------- */

export const calendarKinds = ["live", "camp", "homework", "diary"] as const;
export type CalendarKind = (typeof calendarKinds)[number];

export const calendarQuerySchema = z
  .strictObject(
    {
      from: diaryDateParamSchema,
      to: diaryDateParamSchema,
    },
    { error: "查询参数不正确" },
  )
  .refine((q) => q.from <= q.to && Date.parse(q.to) - Date.parse(q.from) <= 62 * 86_400_000, "日期范围最多 62 天");

export const calendarEventSchema = z.object({
  id: z.string(),
  kind: z.enum(calendarKinds),
  date: z.string(),
  /** China wall-clock time "HH:MM" for timed events, null for whole-day ones. */
  time: z.string().nullable(),
  endTime: z.string().nullable(),
  title: z.string(),
  detail: z.string(),
  href: z.string().nullable(),
});
export type CalendarEvent = z.infer<typeof calendarEventSchema>;

export const calendarSchema = z.object({
  from: z.string(),
  to: z.string(),
  today: z.string(),
  events: z.array(calendarEventSchema),
});
export type Calendar = z.infer<typeof calendarSchema>;

export const calendarFeedSchema = z.object({
  enabled: z.boolean(),
  /** The full subscription address (https://…/api/practice/feed/<token>.ics), or null when off. */
  url: z.string().nullable(),
});
export type CalendarFeed = z.infer<typeof calendarFeedSchema>;
