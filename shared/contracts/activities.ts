/**
 * Activities (/api/activities, the /activitys pages) and the free trial-class sign-up
 * (/experience). The API validates with these schemas and the sign-up form checks itself with
 * the same ones before sending.
 */
import { z } from "zod";
import { courseCategories, type CourseCategoryKey } from "../catalogue";
import { phoneSchema } from "./auth";
import { courseSummarySchema } from "./catalogue";
import { strictQueryError } from "./shop";
import { formatDate, formatShortDate } from "../format";

// ---------- Activities ----------

export const activityKinds = {
  bmyx: "笔墨研习",
  daycourse: "每日一课",
  reading: "共读",
  travel_note: "游记",
  general: "主题活动",
} as const;
export type ActivityKindKey = keyof typeof activityKinds;
const activityKindKeys = Object.keys(activityKinds) as [ActivityKindKey, ...ActivityKindKey[]];

export const activityStates = { upcoming: "未开始", ongoing: "进行中", ended: "已结束" } as const;
export type ActivityState = keyof typeof activityStates;
const activityStateKeys = Object.keys(activityStates) as [ActivityState, ...ActivityState[]];

/** Where an activity stands at `now`: before its start, between start and end, or after. */
export function activityStateAt(startsAt: Date, endsAt: Date, now: Date): ActivityState {
  if (now < startsAt) return "upcoming";
  if (now < endsAt) return "ongoing";
  return "ended";
}

export const activityListQuerySchema = z.strictObject(
  { kind: z.enum(activityKindKeys, "活动类型不正确").optional() },
  { error: strictQueryError },
);

export const activitySummarySchema = z.object({
  token: z.string(),
  kind: z.enum(activityKindKeys),
  title: z.string(),
  summary: z.string(),
  coverChar: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  state: z.enum(activityStateKeys),
});
export type ActivitySummary = z.infer<typeof activitySummarySchema>;

export const activityListSchema = z.object({ items: z.array(activitySummarySchema) });
export type ActivityList = z.infer<typeof activityListSchema>;

export const activityDetailSchema = activitySummarySchema.extend({
  body: z.array(z.object({ heading: z.string(), text: z.string() })),
  course: courseSummarySchema.nullable(),
  /** Most sign-ups at once, or null for no cap; with the current number of sign-ups. */
  capacity: z.number().int().nullable(),
  signedUpCount: z.number().int(),
  /** The lesson whose homework (临写作业) participants hand in through the homework flow. */
  homeworkLesson: z.object({ id: z.number().int(), title: z.string() }).nullable(),
  /** The landing page's public address (what the share page's link and QR code carry). */
  url: z.string(),
});
export type ActivityDetail = z.infer<typeof activityDetailSchema>;

// ---------- Taking part: 报名, 打卡, 临写作业 ----------

export const signupStates = { signed_up: "已报名", cancelled: "已取消" } as const;
export type SignupState = keyof typeof signupStates;
const signupStateKeys = Object.keys(signupStates) as [SignupState, ...SignupState[]];

const ruleSchema = z.object({ allowed: z.boolean(), reason: z.string() });

/** The viewer's part in one activity, and what they can do now (each with the reason when not). */
export const participationSchema = z.object({
  signedIn: z.boolean(),
  signup: z.object({ state: z.enum(signupStateKeys), stateLabel: z.string(), since: z.string() }).nullable(),
  signUp: ruleSchema,
  cancel: ruleSchema,
  checkIn: ruleSchema,
  /** China dates ("YYYY-MM-DD") the viewer checked in on, newest first. */
  checkIns: z.array(z.string()),
  checkedInToday: z.boolean(),
  /** The activity's homework lesson and whether the viewer may hand its task in. */
  homework: z
    .object({ lessonId: z.number().int(), lessonTitle: z.string(), allowed: z.boolean(), reason: z.string() })
    .nullable(),
  capacity: z.number().int().nullable(),
  signedUpCount: z.number().int(),
});
export type Participation = z.infer<typeof participationSchema>;

export const participationResultSchema = z.object({ participation: participationSchema, message: z.string() });
export type ParticipationResult = z.infer<typeof participationResultSchema>;

export const ACTIVITY_CHECK_IN_NOTE_MAX = 200;
export const ACTIVITY_CHECK_IN_MAX_MINUTES = 600;

const checkInStrictError = (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `不支持的字段：${(issue.keys ?? []).join("、")}` : undefined;

/** 打卡: what was practised today (all optional); it is added to today's practice-diary entry. */
export const activityCheckInSchema = z.strictObject(
  {
    minutes: z
      .number("练习时长要填数字")
      .int("练习时长要填整数分钟")
      .min(0, "练习时长不能是负数")
      .max(ACTIVITY_CHECK_IN_MAX_MINUTES, `一次打卡最多记 ${ACTIVITY_CHECK_IN_MAX_MINUTES} 分钟`)
      .default(0),
    characters: z.string("练习的字要填文字").max(100, "练习的字最多 100 个").default(""),
    note: z
      .string("打卡留言要填文字")
      .trim()
      .max(ACTIVITY_CHECK_IN_NOTE_MAX, `打卡留言最多 ${ACTIVITY_CHECK_IN_NOTE_MAX} 字`)
      .default(""),
  },
  { error: checkInStrictError },
);
export type ActivityCheckInInput = z.input<typeof activityCheckInSchema>;

export const checkInResultSchema = participationResultSchema.extend({
  /** Coins the diary's daily check-in paid now (0 when today's was already paid). */
  coins: z.number().int(),
});
export type CheckInResult = z.infer<typeof checkInResultSchema>;

/** The learner's activities (/my/activities): each sign-up with its state and check-ins. */
export const myActivitiesSchema = z.object({
  items: z.array(
    z.object({
      activity: activitySummarySchema,
      state: z.enum(signupStateKeys),
      stateLabel: z.string(),
      signedUpAt: z.string(),
      checkInDays: z.number().int(),
      lastCheckIn: z.string().nullable(),
      checkedInToday: z.boolean(),
      homeworkLessonId: z.number().int().nullable(),
    }),
  ),
});
export type MyActivities = z.infer<typeof myActivitiesSchema>;

/**
 * "2026年3月1日 — 2026年4月30日" (or "2026.03.01 — 2026.04.30" for cards) in China time, the
 * same on the server and in every browser.
 */
export function formatActivityRange(startsAt: string, endsAt: string, style: "long" | "short" = "long"): string {
  const format = style === "short" ? formatShortDate : formatDate;
  return `${format(startsAt)} — ${format(endsAt)}`;
}

// ---------- Trial class sign-up ----------

export const TRIAL_NAME_MAX = 20;

export const trialGrades = [
  { key: "preschool", name: "学龄前（4–6 岁）" },
  { key: "primary_lower", name: "小学一至三年级" },
  { key: "primary_upper", name: "小学四至六年级" },
  { key: "junior", name: "初中" },
  { key: "senior", name: "高中" },
  { key: "adult", name: "成人" },
] as const;
export type TrialGrade = (typeof trialGrades)[number]["key"];
const gradeKeys = trialGrades.map((g) => g.key) as [TrialGrade, ...TrialGrade[]];
const categoryKeys = courseCategories.map((c) => c.key) as [CourseCategoryKey, ...CourseCategoryKey[]];

export function trialGradeName(key: string): string | undefined {
  return trialGrades.find((g) => g.key === key)?.name;
}

const signupStrictError = (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys"
    ? `不支持的字段：${(issue.keys ?? []).join("、")}`
    : issue.code === "invalid_type"
      ? "请求内容格式不正确"
      : undefined;

export const trialNameSchema = z
  .string("请填写您的称呼")
  .trim()
  .min(1, "请填写您的称呼")
  .refine((v) => [...v].length <= TRIAL_NAME_MAX, `称呼最多 ${TRIAL_NAME_MAX} 个字`)
  .refine((v) => ![...v].some((ch) => ch.charCodeAt(0) < 0x20 || ch === "\u007f"), "称呼不能包含控制字符");

export const trialSignupSchema = z.strictObject(
  {
    name: trialNameSchema,
    phone: z.string("请填写手机号").pipe(phoneSchema),
    category: z.enum(categoryKeys, "请选择想体验的课程"),
    /** Optional: "" or absent means not given. */
    grade: z
      .union([z.literal(""), z.enum(gradeKeys)], "请选择年级或年龄段")
      .optional()
      .transform((v) => v ?? ""),
  },
  { error: signupStrictError },
);
export type TrialSignupInput = z.input<typeof trialSignupSchema>;
export type TrialSignup = z.output<typeof trialSignupSchema>;

export const trialSignupResultSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  category: z.enum(categoryKeys),
  categoryName: z.string(),
  /** 138****8000: enough to recognise, not enough to read off a screen. */
  maskedPhone: z.string(),
  createdAt: z.string(),
});
export type TrialSignupResult = z.infer<typeof trialSignupResultSchema>;

/** What the form can fill in for a signed-in learner, and what they already signed up for. */
export const trialPrefillSchema = z.object({
  name: z.string().nullable(),
  phone: z.string().nullable(),
  signedUp: z.array(z.enum(categoryKeys)),
});
export type TrialPrefill = z.infer<typeof trialPrefillSchema>;

export const TRIAL_DUPLICATE_MESSAGE = "您已报名过该体验课，老师会尽快与您联系";

export function maskPhone(phone: string): string {
  return phone.length === 11 ? `${phone.slice(0, 3)}****${phone.slice(7)}` : phone;
}
