/**
 * Live sessions as staff run them: operators schedule, move, cancel, assign the teacher and attach
 * the recording (/api/admin/live…); teachers see their own sessions with the stream key, move them,
 * pin a message and mute learners (/api/teach/live…); operators moderate any room's chat.
 */
import { z } from "zod";
import { sampleVideoKeys } from "../media";
import { type LiveStateKey, liveStates } from "./catalogue";
import { pagedOf, staffPageQuery } from "./staff";

const liveStateSchema = z.enum(Object.keys(liveStates) as [LiveStateKey, ...LiveStateKey[]]);

/** Longest a live session may last. */
export const LIVE_MAX_HOURS = 8;
/** How long a mute may last (minutes): from 5 minutes to a week. */
export const MUTE_MINUTES = [5, 30, 60, 24 * 60, 7 * 24 * 60] as const;
export const MUTE_LABELS: Record<(typeof MUTE_MINUTES)[number], string> = {
  5: "5 分钟",
  30: "30 分钟",
  60: "1 小时",
  1440: "1 天",
  10080: "7 天",
};

const when = z.iso.datetime({ offset: true, error: "请填写正确的时间" });

const timesRule = (v: { startsAt?: string; endsAt?: string }) =>
  v.startsAt === undefined ||
  v.endsAt === undefined ||
  (Date.parse(v.endsAt) > Date.parse(v.startsAt) &&
    Date.parse(v.endsAt) - Date.parse(v.startsAt) <= LIVE_MAX_HOURS * 3_600_000);
const TIMES_MESSAGE = { message: `结束时间须晚于开始时间，且一场不超过 ${LIVE_MAX_HOURS} 小时`, path: ["endsAt"] };

const liveFields = z.object({
  title: z.string().trim().min(1, "请填写直播标题").max(60, "直播标题不能超过 60 个字"),
  summary: z.string().trim().max(1000, "简介不能超过 1000 个字"),
  courseId: z.number().int().positive().nullable(),
  teacherId: z.number().int().positive("请选择授课老师"),
  startsAt: when,
  endsAt: when,
  isOpen: z.boolean(),
  coverChar: z
    .string()
    .trim()
    .refine((v) => [...v].length === 1, "封面字只能是一个字"),
});
export const liveCreateSchema = liveFields
  .extend({ summary: liveFields.shape.summary.default(""), isOpen: liveFields.shape.isOpen.default(false) })
  .refine(timesRule, TIMES_MESSAGE);
export type LiveCreate = z.input<typeof liveCreateSchema>;
export const livePatchSchema = liveFields
  .partial()
  .refine((v) => Object.keys(v).length > 0, "没有要修改的内容")
  .refine(timesRule, TIMES_MESSAGE);
export type LivePatch = z.input<typeof livePatchSchema>;

/** A teacher moves their own session: the new start and end only. */
export const liveMoveSchema = z.object({ startsAt: when, endsAt: when }).refine(timesRule, TIMES_MESSAGE);
export type LiveMove = z.infer<typeof liveMoveSchema>;

export const liveCancelSchema = z.object({
  reason: z.string().trim().min(1, "请填写取消原因（会告知学员）").max(200, "原因不能超过 200 个字"),
});

export const chapterMarkInputSchema = z.object({
  at: z.number().int().min(0, "时间点不能为负"),
  title: z.string().trim().min(1, "请填写章节标题").max(40, "章节标题不能超过 40 个字"),
});
export const recordingInputSchema = z.object({
  videoKey: z.enum(sampleVideoKeys as [string, ...string[]], "请选择录像"),
  chapterMarks: z
    .array(chapterMarkInputSchema)
    .max(50, "章节标记最多 50 个")
    .refine((marks) => marks.every((m, i) => i === 0 || m.at > marks[i - 1]!.at), "章节标记须按时间先后排列"),
});
export type RecordingInput = z.infer<typeof recordingInputSchema>;

export const pinInputSchema = z.object({
  message: z.string().trim().max(200, "置顶消息不能超过 200 个字").nullable(),
});

export const muteInputSchema = z.object({
  userId: z.number().int().positive(),
  minutes: z.union(MUTE_MINUTES.map((m) => z.literal(m)) as [z.ZodLiteral<number>, ...z.ZodLiteral<number>[]], {
    error: "请选择禁言时长",
  }),
});

export const adminLiveRowSchema = z.object({
  id: z.number(),
  title: z.string(),
  courseId: z.number().nullable(),
  courseTitle: z.string().nullable(),
  teacherId: z.number(),
  teacherName: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  state: liveStateSchema,
  bookings: z.number(),
});
export type AdminLiveRow = z.infer<typeof adminLiveRowSchema>;

export const ingestSchema = z.object({
  /** Where the broadcasting software sends the stream (RTMP). */
  server: z.string(),
  streamKey: z.string(),
  /** What viewers play (HLS), the address the "go live" check reads. */
  playbackUrl: z.string(),
  /** The demo broadcaster loops a sample on every key (no real ingest on this site). */
  demo: z.boolean(),
});
export type Ingest = z.infer<typeof ingestSchema>;

export const chatEntrySchema = z.object({
  id: z.number(),
  userId: z.number(),
  nickname: z.string(),
  body: z.string(),
  createdAt: z.string(),
  hidden: z.boolean(),
  mutedUntil: z.string().nullable(),
});
export type ChatEntry = z.infer<typeof chatEntrySchema>;

export const adminLiveSchema = adminLiveRowSchema.extend({
  summary: z.string(),
  coverChar: z.string(),
  isOpen: z.boolean(),
  ingest: ingestSchema,
  recordingVideoKey: z.string().nullable(),
  chapterMarks: z.array(z.object({ at: z.number(), title: z.string() })),
  pinnedMessage: z.string().nullable(),
  /** Learners told of a move or a cancellation (booked or enrolled). */
  audience: z.number(),
});
export type AdminLive = z.infer<typeof adminLiveSchema>;

export const liveListQuerySchema = staffPageQuery.extend({
  state: liveStateSchema.optional().catch(undefined),
  /** From this China date on (YYYY-MM-DD). */
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .catch(undefined),
});
export type LiveListQuery = z.infer<typeof liveListQuerySchema>;
export const adminLivePageSchema = pagedOf(adminLiveRowSchema);

export const chatLogSchema = z.object({ messages: z.array(chatEntrySchema) });
export const teachLiveListSchema = z.object({ sessions: z.array(adminLiveRowSchema) });

/** Room events the staff actions send to viewers. */
export const roomHideEventSchema = z.object({ id: z.number() });
export const roomPinEventSchema = z.object({ pinned: z.string().nullable() });
