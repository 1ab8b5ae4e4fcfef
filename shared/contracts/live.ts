/**
 * Live lessons (DESIGN §4): the schedule by tab, one session's room, booking (a reminder when it
 * goes live), chat, check-in and attendance. Summaries come from ./catalogue (LiveSummary).
 */
import { z } from "zod";
import { liveSummarySchema, teacherSummarySchema } from "./catalogue";

export const liveTabs = {
  today: "今日",
  upcoming: "即将开始",
  live: "直播中",
  ended: "已结束",
} as const;
export type LiveTab = keyof typeof liveTabs;
export const liveTabKeys = Object.keys(liveTabs) as LiveTab[];

/** Chat rules, shown to learners and enforced by the API. */
export const CHAT_MAX_CHARS = 200;
export const CHAT_RATE = { max: 10, windowSeconds: 10 } as const;
/** Messages sent to a room's new viewer. */
export const CHAT_HISTORY = 50;
/** Attendance: the room beats every minute; ten minutes of live watching count as attended. */
export const ATTENDANCE_BEAT_SECONDS = 60;
export const ATTENDANCE_MIN_GAP_SECONDS = 30;
export const ATTENDANCE_MAX_PER_BEAT_SECONDS = 90;
export const ATTENDANCE_COUNTED_SECONDS = 600;

export const liveListQuerySchema = z.strictObject({
  tab: z
    .enum(["today", "upcoming", "live", "ended"], { error: "请选择今日、即将开始、直播中或已结束" })
    .default("today"),
});

/**
 * Who may watch: `open` (a public class), `enrolled`, `host` (the session's teacher or an
 * operator); or why not: `sign_in` (anonymous) or `not_enrolled`.
 */
export const liveAccessSchema = z.enum(["open", "enrolled", "host", "sign_in", "not_enrolled"]);
export type LiveAccess = z.infer<typeof liveAccessSchema>;
export const hasLiveAccess = (access: LiveAccess) => access === "open" || access === "enrolled" || access === "host";

export const liveListItemSchema = liveSummarySchema.extend({
  /** Whether the signed-in viewer booked it (false for anonymous visitors). */
  booked: z.boolean(),
  /** Who the viewer is to the session: 预约 is offered only when the booking rule allows it. */
  access: liveAccessSchema,
});
export type LiveListItem = z.infer<typeof liveListItemSchema>;

/** The site as schema.org Event data names it (organizer, absolute room addresses). */
export const liveSiteSchema = z.object({ name: z.string(), origin: z.string() });
export type LiveSite = z.infer<typeof liveSiteSchema>;

export const liveListSchema = z.object({
  tab: z.enum(["today", "upcoming", "live", "ended"]),
  site: liveSiteSchema,
  items: z.array(liveListItemSchema),
  serverNow: z.string(),
  signedIn: z.boolean(),
});
export type LiveList = z.infer<typeof liveListSchema>;

export const liveAttendanceSchema = z.object({
  seconds: z.number().int().nonnegative(),
  /** Set once the learner watched ten minutes live. */
  countedAt: z.string().nullable(),
});
export type LiveAttendance = z.infer<typeof liveAttendanceSchema>;

export const liveDetailSchema = z.object({
  live: liveSummarySchema,
  site: liveSiteSchema,
  summary: z.string(),
  course: z.object({ id: z.number().int(), title: z.string() }).nullable(),
  teacher: teacherSummarySchema,
  serverNow: z.string(),
  signedIn: z.boolean(),
  access: liveAccessSchema,
  /** The HLS stream, only while live and only for viewers with access. */
  streamUrl: z.string().nullable(),
  /** The replay page once the recording is ready. */
  replayUrl: z.string().nullable(),
  booked: z.boolean(),
  bookings: z.number().int().nonnegative(),
  checkedInAt: z.string().nullable(),
  attendance: liveAttendanceSchema.nullable(),
  online: z.number().int().nonnegative(),
});
export type LiveDetail = z.infer<typeof liveDetailSchema>;

export const bookingResultSchema = z.object({ booked: z.boolean(), bookings: z.number().int().nonnegative() });
export type BookingResult = z.infer<typeof bookingResultSchema>;

const codePoints = (text: string) => [...text].length;
/** Control characters other than line breaks and tabs have no place in a chat line. */
// eslint-disable-next-line no-control-regex -- matching them is the point
const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

export const chatPostSchema = z.strictObject({
  body: z
    .string({ error: "请输入要发送的内容" })
    .transform((text) => text.replace(/\r\n?/g, "\n").replace(/\t/g, " ").replace(CONTROL_CHARS, "").trim())
    .refine((text) => codePoints(text) >= 1, "请输入要发送的内容")
    .refine((text) => codePoints(text) <= CHAT_MAX_CHARS, `每条消息最多 ${CHAT_MAX_CHARS} 个字`),
});
export type ChatPost = z.infer<typeof chatPostSchema>;

export const chatMessageSchema = z.object({
  id: z.number().int(),
  body: z.string(),
  nickname: z.string(),
  /** Sent by the session's teacher. */
  teacher: z.boolean(),
  /** Sent by the viewer who receives it. */
  mine: z.boolean(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const checkInResultSchema = z.object({
  checkedInAt: z.string(),
  /** False when this call did the check-in, true when it had been done before. */
  already: z.boolean(),
});
export type CheckInResult = z.infer<typeof checkInResultSchema>;

export const attendanceBeatSchema = z.strictObject({
  /** The viewer just started (or resumed) watching: time before this beat is not counted. */
  start: z.boolean({ error: "start 必须是 true 或 false" }).optional(),
});
export type AttendanceBeat = z.infer<typeof attendanceBeatSchema>;

export const attendanceResultSchema = liveAttendanceSchema.extend({
  /** False when the beat came too soon after the last one and changed nothing. */
  accepted: z.boolean(),
});
export type AttendanceResult = z.infer<typeof attendanceResultSchema>;

/** Server-Sent Events of a room (GET /api/live/:id/events). */
export const roomOnlineEventSchema = z.object({ online: z.number().int().nonnegative() });
export const roomStateEventSchema = z.object({
  state: liveSummarySchema.shape.state,
  serverNow: z.string(),
});
export type RoomStateEvent = z.infer<typeof roomStateEventSchema>;
