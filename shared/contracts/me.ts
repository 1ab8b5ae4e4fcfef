/**
 * The personal centre's contracts (/api/me, /api/notices): profile, avatar, security, devices,
 * sessions, account deletion and notices. The API validates with these schemas and the pages
 * check their forms with the same ones before sending.
 */
import { z } from "zod";
import { emailSchema, nicknameSchema, otpCodeSchema, passwordSchema, phoneSchema } from "./auth";

export const REGION_MAX = 40;
export const INTRO_MAX = 200;

/** Avatars: what may be uploaded and what is kept (a 256 × 256 WebP). */
export const AVATAR_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
export type AvatarType = (typeof AVATAR_TYPES)[number];
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

/**
 * Whether a picked file may go up as an avatar or a cover: by its type, or by its name when the
 * system left the type empty or vague (the API judges the bytes either way).
 */
export function isAvatarFile(file: { type: string; name: string }): boolean {
  if ((AVATAR_TYPES as readonly string[]).includes(file.type)) return true;
  return (file.type === "" || file.type === "application/octet-stream") && /\.(jpe?g|png|webp)$/i.test(file.name);
}
export const AVATAR_MAX_SIDE = 8000;
export const AVATAR_MAX_PIXELS = 40_000_000;
export const AVATAR_SIZE = 256;

/** Days between a deletion request and the erasure of the account (the deletion agreement). */
export const DELETION_COOLING_DAYS = 15;
export const DELETION_CONFIRM_WORD = "注销";

/** Unknown fields are refused by name, in Chinese (mass assignment, `__proto__`, `constructor`). */
const strictError = (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `不支持的字段：${(issue.keys ?? []).join("、")}` : undefined;

function hasControlChars(value: string, allowNewlines: boolean): boolean {
  for (const ch of value) {
    const code = ch.charCodeAt(0);
    if (allowNewlines && (ch === "\n" || ch === "\t")) continue;
    if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029) return true;
  }
  return false;
}

export const genderSchema = z.enum(["male", "female"], "请选择性别");
export type Gender = z.infer<typeof genderSchema>;
export const genderLabels: Record<Gender, string> = { male: "男", female: "女" };

export const regionSchema = z
  .string("请填写地区")
  .trim()
  .max(REGION_MAX, `地区最多 ${REGION_MAX} 个字`)
  .refine((v) => !hasControlChars(v, false), "地区不能包含换行或控制字符");

export const introSchema = z
  .string("请填写个人简介")
  .trim()
  .max(INTRO_MAX, `个人简介最多 ${INTRO_MAX} 字`)
  .refine((v) => !hasControlChars(v, true), "个人简介不能包含控制字符");

/** Only these four fields may change here; an empty region or intro clears it. */
export const profilePatchSchema = z
  .strictObject(
    {
      nickname: nicknameSchema.optional(),
      gender: genderSchema.nullable().optional(),
      region: regionSchema.nullable().optional(),
      intro: introSchema.nullable().optional(),
    },
    { error: strictError },
  )
  .refine((v) => Object.keys(v).length > 0, "没有要修改的内容");
export type ProfilePatch = z.infer<typeof profilePatchSchema>;

const isoDate = z.iso.datetime();

export const profileSchema = z.object({
  id: z.number().int().positive(),
  nickname: z.string(),
  avatarUrl: z.string().nullable(),
  gender: genderSchema.nullable(),
  region: z.string().nullable(),
  intro: z.string().nullable(),
  /** Masked: 138****8000. */
  phone: z.string().nullable(),
  /** Masked: z***@example.com. */
  email: z.string().nullable(),
  hasPassword: z.boolean(),
  deviceProtection: z.boolean(),
  status: z.enum(["active", "deleting"]),
  deletionRequestedAt: isoDate.nullable(),
  /** When the account will be erased unless the request is withdrawn. */
  deletionDueAt: isoDate.nullable(),
  createdAt: isoDate,
});
export type Profile = z.infer<typeof profileSchema>;

export const meSchema = z.object({
  profile: profileSchema,
  /** Courses and the coin and bishan balances come from their own endpoints (the overview reads both). */
  counts: z.object({ unreadNotices: z.number().int().nonnegative() }),
});
export type Me = z.infer<typeof meSchema>;

export const avatarResultSchema = z.object({ avatarUrl: z.string() });
export type AvatarResult = z.infer<typeof avatarResultSchema>;

/** `current` is required when the account already has a password. */
export const passwordChangeSchema = z.strictObject(
  { current: z.string().max(128, "当前密码不正确").optional(), password: passwordSchema },
  { error: strictError },
);
export type PasswordChange = z.infer<typeof passwordChangeSchema>;

export const phoneBindSendSchema = z.strictObject({ phone: phoneSchema }, { error: strictError });
export const phoneBindSchema = z.strictObject({ phone: phoneSchema, code: otpCodeSchema }, { error: strictError });
export const emailBindSendSchema = z.strictObject({ email: emailSchema }, { error: strictError });
export const emailBindSchema = z.strictObject({ email: emailSchema, code: otpCodeSchema }, { error: strictError });

export const deviceProtectionSchema = z.strictObject(
  { enabled: z.boolean("请选择开启或关闭") },
  { error: strictError },
);

export const deviceSchema = z.object({
  id: z.number().int().positive(),
  name: z.string(),
  trusted: z.boolean(),
  /** The device of this browser's session. */
  current: z.boolean(),
  firstSeenAt: isoDate,
  lastSeenAt: isoDate,
});
export type Device = z.infer<typeof deviceSchema>;
export const deviceListSchema = z.object({ items: z.array(deviceSchema) });
export type DeviceList = z.infer<typeof deviceListSchema>;

/** A session's public id: the first 16 hex digits of its stored hash (never the cookie). */
export const sessionPublicIdSchema = z.string().regex(/^[0-9a-f]{16}$/, "会话编号不正确");

export const sessionSchema = z.object({
  id: sessionPublicIdSchema,
  /** Browser and system, or the bound device's name. */
  device: z.string(),
  ip: z.string(),
  createdAt: isoDate,
  lastSeenAt: isoDate,
  current: z.boolean(),
});
export type SessionItem = z.infer<typeof sessionSchema>;
export const sessionListSchema = z.object({ items: z.array(sessionSchema) });
export type SessionList = z.infer<typeof sessionListSchema>;

/** Where the deletion code goes: the bound phone or the bound e-mail (the deletion agreement). */
export const deletionChannelSchema = z.enum(["sms", "email"], "请选择接收验证码的方式");
export type DeletionChannel = z.infer<typeof deletionChannelSchema>;
export const deletionCodeSendSchema = z.strictObject({ channel: deletionChannelSchema }, { error: strictError });

export const deletionRequestSchema = z.strictObject(
  {
    confirm: z.literal(DELETION_CONFIRM_WORD, `请输入“${DELETION_CONFIRM_WORD}”确认`),
    channel: deletionChannelSchema,
    code: otpCodeSchema,
  },
  { error: strictError },
);

/** Where to withdraw a deletion request; every refusal of a frozen account names it. */
export const DELETION_CANCEL_PATH = "/my/security#deletion";

/** What a frozen account (deletion requested, cooling-off running) is told when it tries `action`. */
export function frozenAccountMessage(action: string): string {
  return `账号正在注销冷静期，已冻结，不能${action}。如需继续使用，请到“个人中心 › 账号与安全”撤销注销申请。`;
}

export const deletionStatusSchema = z.object({
  status: z.enum(["active", "deleting"]),
  deletionRequestedAt: isoDate.nullable(),
  deletionDueAt: isoDate.nullable(),
});
export type DeletionStatus = z.infer<typeof deletionStatusSchema>;

export const okSchema = z.object({ status: z.literal("ok") });

export const noticeSchema = z.object({
  id: z.number().int().positive(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  createdAt: isoDate,
  read: z.boolean(),
});
export type Notice = z.infer<typeof noticeSchema>;
export const NOTICES_PAGE_SIZE = 20;
export const noticeListSchema = z.object({ items: z.array(noticeSchema), unread: z.number().int().nonnegative() });
export type NoticeList = z.infer<typeof noticeListSchema>;

/** Marks the given notices read, or all of them when `ids` is absent. */
export const noticesReadSchema = z.strictObject(
  {
    ids: z
      .array(z.number("通知编号不正确").int("通知编号不正确").positive("通知编号不正确"))
      .min(1, "请选择通知")
      .max(100, "一次最多 100 条")
      .optional(),
  },
  { error: strictError },
);
export const noticesReadResultSchema = z.object({ unread: z.number().int().nonnegative() });

/** Weeks of study time the overview's chart shows (this week and the ones before). */
export const STUDY_WEEKS = 8;

/** The personal centre's overview beyond the profile, balances and courses (/api/me/overview). */
export const overviewSchema = z.object({
  /** Today's daily check-in (China-time day). */
  checkIn: z.object({ done: z.boolean() }),
  homework: z.object({
    /** Tasks of the learner's courses not yet handed in, or returned to be written again. */
    toDo: z.number().int().nonnegative(),
    /** Handed in and waiting for a teacher's review. */
    inReview: z.number().int().nonnegative(),
    items: z.array(
      z.object({
        taskId: z.number().int(),
        lessonId: z.number().int(),
        title: z.string(),
        courseTitle: z.string(),
        state: z.enum(["todo", "returned"]),
      }),
    ),
  }),
  nextLive: z
    .object({
      id: z.number().int(),
      title: z.string(),
      startsAt: isoDate,
      state: z.enum(["scheduled", "live"]),
      booked: z.boolean(),
    })
    .nullable(),
  /** Oldest first; `weekStart` is the Monday ("YYYY-MM-DD", China time). */
  studyWeeks: z.array(z.object({ weekStart: z.string(), minutes: z.number().int().nonnegative() })),
});
export type Overview = z.infer<typeof overviewSchema>;
