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
  /** The landing page's public address (what the share page's link and QR code carry). */
  url: z.string(),
});
export type ActivityDetail = z.infer<typeof activityDetailSchema>;

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
