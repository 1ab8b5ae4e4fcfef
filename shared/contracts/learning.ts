/**
 * The lesson player's contracts (/api/learning): a lesson with its course outline and the
 * viewer's access, progress reports and the remembered playback speed, free public lessons and
 * the recordings of finished live lessons. The API validates with these schemas; the pages
 * check the answers with the same ones.
 */
import { z } from "zod";
import { liveSummarySchema } from "./catalogue";
import { outlineChapterOf, outlineLessonBaseSchema } from "./courses";

/** The speeds the player offers; the server accepts exactly these (0.75–2 in steps of 0.25). */
export const PLAYBACK_SPEEDS = [0.75, 1, 1.25, 1.5, 2] as const;
export const DEFAULT_SPEED = 1;

/** A report may say at most this many seconds were watched since the previous one. */
export const MAX_WATCHED_PER_REPORT = 60;
/** The player reports this often while playing. */
export const REPORT_INTERVAL_MS = 15_000;
/** A lesson counts as finished once this share of it was watched (or it played to the end). */
export const COMPLETION_RATIO = 0.9;
/** A stored position this close to the end starts the next viewing from the beginning. */
export const RESTART_NEAR_END_SECONDS = 10;

/** Where a stored position makes the player start: the beginning when it is near the end. */
export function resumePosition(position: number, duration: number): number {
  if (!Number.isFinite(position) || position <= 0) return 0;
  if (position >= duration - RESTART_NEAR_END_SECONDS) return 0;
  return Math.floor(position);
}

/** "PT1M30S" for 90 seconds: schema.org durations. */
export function isoDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  return `PT${h ? `${h}H` : ""}${m ? `${m}M` : ""}${rest || (!h && !m) ? `${rest}S` : ""}`;
}

/** Unknown fields are refused by name, in Chinese; a body that is not an object says so. */
const strictError = (issue: { code?: string; keys?: string[] }) => {
  if (issue.code === "unrecognized_keys") return `不支持的字段：${(issue.keys ?? []).join("、")}`;
  if (issue.code === "invalid_type") return "请求内容必须是 JSON 对象";
  return undefined;
};

export const speedSchema = z
  .number("倍速必须是数字")
  .refine((v) => (PLAYBACK_SPEEDS as readonly number[]).includes(v), "倍速只能是 0.75、1、1.25、1.5 或 2");

export const speedInputSchema = z.strictObject({ speed: speedSchema }, { error: strictError });
export type SpeedInput = z.infer<typeof speedInputSchema>;

export const speedResultSchema = z.object({ speed: z.number() });

/** One progress report of the player. */
export const progressInputSchema = z.strictObject(
  {
    /** Where playback is now, in seconds. */
    position: z.number("播放位置必须是数字").min(0, "播放位置不能小于 0").max(86_400, "播放位置不正确"),
    /** Seconds of media watched since the previous report; more than 60 is counted as 60. */
    watched: z.number("观看时长必须是数字").min(0, "观看时长不能小于 0"),
    speed: speedSchema,
    /** Playback reached the end. */
    ended: z.boolean("ended 必须是 true 或 false").optional(),
  },
  { error: strictError },
);
export type ProgressInput = z.infer<typeof progressInputSchema>;

export const progressResultSchema = z.object({
  position: z.number().int(),
  watchedSeconds: z.number().int(),
  percent: z.number().int(),
  completed: z.boolean(),
});
export type ProgressResult = z.infer<typeof progressResultSchema>;

export const videoSourcesSchema = z.object({
  hls: z.string(),
  mp4: z.string(),
  poster: z.string(),
  /** WebVTT captions when the video has a transcript. */
  captions: z.string().optional(),
});

/**
 * Where a signed-in viewer starts: the stored position (0 near the end), when it was stored (the
 * player prefers a newer position this browser kept, e.g. one whose report is still on its way
 * after a reload), and the remembered speed.
 */
export const resumeSchema = z.object({ position: z.number(), savedAt: z.string().nullable(), speed: z.number() });
export type Resume = z.infer<typeof resumeSchema>;

export const accessReasons = ["login", "enrol", "purchase", "camp_locked", "processing"] as const;
export const accessSchema = z.object({
  allowed: z.boolean(),
  reason: z.enum(accessReasons).optional(),
  /** Camp lessons: the China date (YYYY-MM-DD) the lesson opens. */
  unlockDate: z.string().optional(),
  message: z.string(),
});
export type Access = z.infer<typeof accessSchema>;

export const lessonProgressSchema = z.object({ percent: z.number().int(), completed: z.boolean() });

export const outlineLessonSchema = outlineLessonBaseSchema.extend({
  /** Why it is locked, in a few words ("需购买", "11月25日解锁"). */
  lockLabel: z.string().nullable(),
  progress: lessonProgressSchema.nullable(),
});
export type OutlineLesson = z.infer<typeof outlineLessonSchema>;

export const outlineChapterSchema = outlineChapterOf(outlineLessonSchema);
export type OutlineChapter = z.infer<typeof outlineChapterSchema>;

export const lessonViewSchema = z.object({
  lesson: z.object({
    id: z.number().int(),
    title: z.string(),
    summary: z.string(),
    durationSeconds: z.number().int(),
    isTrial: z.boolean(),
    /** Its number in the course, from 1. */
    number: z.number().int(),
    chapter: z.object({ id: z.number().int(), title: z.string() }),
  }),
  course: z.object({
    id: z.number().int(),
    title: z.string(),
    category: z.string(),
    kind: z.enum(["recorded", "live", "camp"]),
    priceCents: z.number().int(),
    originalPriceCents: z.number().int(),
    coverChar: z.string(),
    teacherName: z.string(),
    publishedAt: z.string(),
  }),
  outline: z.array(outlineChapterSchema),
  prevLessonId: z.number().int().nullable(),
  nextLessonId: z.number().int().nullable(),
  viewer: z.object({ signedIn: z.boolean(), enrolled: z.boolean() }),
  access: accessSchema,
  sources: videoSourcesSchema.nullable(),
  resume: resumeSchema.nullable(),
});
export type LessonView = z.infer<typeof lessonViewSchema>;

export const publicItemSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string(),
  teacherName: z.string(),
  durationSeconds: z.number().int(),
  coverChar: z.string(),
  publishedAt: z.string(),
});
export type PublicItemSummary = z.infer<typeof publicItemSummarySchema>;

export const publicItemListSchema = z.object({ items: z.array(publicItemSummarySchema) });
export type PublicItemList = z.infer<typeof publicItemListSchema>;

export const publicItemViewSchema = z.object({
  item: publicItemSummarySchema.extend({
    teacher: z.object({ name: z.string(), title: z.string(), specialty: z.string() }),
  }),
  sources: videoSourcesSchema,
  /** Signed-in viewers: the remembered speed (positions of public lessons stay in the browser). */
  speed: z.number().nullable(),
  /** The other public lessons, for the list beside the player. */
  more: z.array(publicItemSummarySchema),
});
export type PublicItemView = z.infer<typeof publicItemViewSchema>;

export const chapterMarkSchema = z.object({ at: z.number(), title: z.string() });
export type ChapterMark = z.infer<typeof chapterMarkSchema>;

export const replaySummarySchema = liveSummarySchema.extend({
  summary: z.string(),
  chapterMarks: z.array(chapterMarkSchema),
  /** Length of the recording, when known. */
  durationSeconds: z.number().int().nullable(),
});
export type ReplaySummary = z.infer<typeof replaySummarySchema>;

export const REPLAY_PAGE_SIZE = 12;

/** Other query parameters (tracking tags and the like) are ignored. */
export const replayListQuerySchema = z.object({
  page: z.coerce
    .number("页码必须是数字")
    .int("页码必须是整数")
    .min(1, "页码从 1 开始")
    .max(1000, "页码太大")
    .default(1),
});

export const replayListSchema = z.object({
  items: z.array(replaySummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
});
export type ReplayList = z.infer<typeof replayListSchema>;

export const replayViewSchema = z.object({
  replay: replaySummarySchema,
  course: z
    .object({ id: z.number().int(), title: z.string(), priceCents: z.number().int(), category: z.string() })
    .nullable(),
  viewer: z.object({ signedIn: z.boolean(), enrolled: z.boolean() }),
  access: accessSchema,
  sources: videoSourcesSchema.nullable(),
  resume: resumeSchema.nullable(),
});
export type ReplayView = z.infer<typeof replayViewSchema>;
