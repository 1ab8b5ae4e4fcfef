/** Login and account contracts, shared by the API and the login dialog's forms. */
import { z } from "zod";
import { viewerSchema } from "./viewer";

/** Mainland mobile numbers, with or without +86 / 86. */
export const phoneSchema = z
  .string()
  .trim()
  .transform((v) => v.replace(/[\s-]/g, "").replace(/^(\+?86)/, ""))
  .pipe(z.string().regex(/^1[3-9]\d{9}$/, "请输入正确的手机号"));

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email("请输入正确的邮箱地址").max(254, "邮箱地址太长"));

export const otpCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, "验证码是 6 位数字");

export const codePurposeSchema = z.enum(["login", "register", "reset", "bind", "device"]);
export type CodePurpose = z.infer<typeof codePurposeSchema>;
/** Every purpose a code is issued for; "deletion" only to the signed-in account's own address. */
export type OtpPurpose = CodePurpose | "deletion";

export const smsSendSchema = z.strictObject({ phone: phoneSchema, purpose: codePurposeSchema.default("login") });
export const smsLoginSchema = z.strictObject({ phone: phoneSchema, code: otpCodeSchema });

/**
 * What every successful login answers: either signed in (`next` names the panel the dialog
 * opens afterwards), or the account has two-factor login and the app's code (or a recovery
 * code) comes next (POST /api/auth/two-factor/verify), or the account protects its devices and
 * this browser must be confirmed with a code sent to `maskedTarget` (POST /api/auth/device/send,
 * then /device/verify).
 */
export const loginResultSchema = z.discriminatedUnion("status", [
  z.object({ status: z.literal("ok"), next: z.enum(["complete_info"]).nullable() }),
  z.object({ status: z.literal("two_factor") }),
  z.object({
    status: z.literal("device_verification"),
    channel: z.enum(["sms", "email"]),
    maskedTarget: z.string(),
  }),
]);
export type LoginResult = z.infer<typeof loginResultSchema>;

export const codeSentSchema = z.object({ status: z.literal("sent"), cooldownSeconds: z.number().int() });
export type CodeSent = z.infer<typeof codeSentSchema>;

export const statusOkSchema = z.object({ status: z.literal("ok") });
export type StatusOk = z.infer<typeof statusOkSchema>;

/** Chinese messages for the two problems every strict input shares. */
const strictInput = {
  error: (issue: { code?: string }) =>
    issue.code === "unrecognized_keys"
      ? "包含不支持的字段"
      : issue.code === "invalid_type"
        ? "请求内容格式不正确"
        : undefined,
};

const hasControlChars = (value: string) => {
  for (const ch of value) {
    const c = ch.codePointAt(0) ?? 0;
    // C0/C1 controls, and the bidirectional overrides that let a name display as something else.
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069))
      return true;
  }
  return false;
};

/**
 * A password problem that depends on the account: it may not be the e-mail's name part or the
 * phone number. Null when fine. Shared by the forms and the API (which also knows the account).
 */
export function passwordIdentityProblem(
  password: string,
  identities: { email?: string | null; phone?: string | null },
): string | null {
  const lowered = password.toLowerCase();
  const local = identities.email?.split("@")[0]?.toLowerCase();
  if (local && lowered === local) return "密码不能与邮箱名相同";
  if (identities.phone && password === identities.phone) return "密码不能与手机号相同";
  return null;
}

/** 8–64 characters with at least one letter and one digit. */
export const passwordSchema = z
  .string({ error: "请输入密码" })
  .min(8, "密码至少 8 位")
  .max(64, "密码最多 64 位")
  .regex(/[A-Za-z]/, "密码需要包含字母")
  .regex(/\d/, "密码需要包含数字");

export const nicknameSchema = z
  .string({ error: "请输入昵称" })
  .trim()
  .min(1, "请输入昵称")
  .refine((v) => [...v].length <= 20, "昵称最多 20 个字")
  .refine((v) => !hasControlChars(v), "昵称不能包含控制字符");

export const emailSendSchema = z.strictObject(
  { email: emailSchema, purpose: z.enum(["login", "register", "reset"], "不支持的验证码用途") },
  strictInput,
);
export const emailLoginSchema = z.strictObject(
  // Not the password rules: a login only checks, and old passwords may predate the rules.
  { email: emailSchema, password: z.string({ error: "请输入密码" }).min(1, "请输入密码").max(128, "密码太长") },
  strictInput,
);
export const emailCodeLoginSchema = z.strictObject({ email: emailSchema, code: otpCodeSchema }, strictInput);
export const emailRegisterSchema = z
  .strictObject(
    { email: emailSchema, code: otpCodeSchema, password: passwordSchema, nickname: nicknameSchema.optional() },
    strictInput,
  )
  .superRefine((v, ctx) => {
    const problem = passwordIdentityProblem(v.password, { email: v.email });
    if (problem) ctx.addIssue({ code: "custom", path: ["password"], message: problem });
  });

/** Retrieve account (找回账号): by the phone or the e-mail the account is bound to. */
const recoveryTarget = [
  z.strictObject({ channel: z.literal("sms"), target: phoneSchema }, strictInput),
  z.strictObject({ channel: z.literal("email"), target: emailSchema }, strictInput),
] as const;
export const resetSendSchema = z.discriminatedUnion("channel", [recoveryTarget[0], recoveryTarget[1]], {
  error: "请选择手机号或邮箱",
});
export const resetSchema = z
  .discriminatedUnion(
    "channel",
    [
      recoveryTarget[0].extend({ code: otpCodeSchema, password: passwordSchema }),
      recoveryTarget[1].extend({ code: otpCodeSchema, password: passwordSchema }),
    ],
    { error: "请选择手机号或邮箱" },
  )
  .superRefine((v, ctx) => {
    const problem = passwordIdentityProblem(
      v.password,
      v.channel === "sms" ? { phone: v.target } : { email: v.target },
    );
    if (problem) ctx.addIssue({ code: "custom", path: ["password"], message: problem });
  });

/** Confirming a new browser for an account with device protection (the pending login is a cookie). */
export const deviceSendSchema = z.strictObject({}, strictInput);
export const deviceVerifySchema = z.strictObject({ code: otpCodeSchema }, strictInput);

/** Complete info (完善资料) after the first login. */
export const completeInfoSchema = z.strictObject(
  {
    nickname: nicknameSchema,
    avatarUrl: z
      .string()
      .max(300, "头像地址太长")
      .regex(/^\/avatar\/[A-Za-z0-9][A-Za-z0-9._/-]*$/, "头像地址不正确")
      .refine((v) => !v.includes(".."), "头像地址不正确")
      .optional(),
    gender: z.enum(["male", "female"], "请选择性别").optional(),
    region: z
      .string()
      .trim()
      .max(40, "地区最多 40 个字")
      .refine((v) => !hasControlChars(v), "地区不能包含控制字符")
      .optional(),
  },
  strictInput,
);
export const skipInfoSchema = z.strictObject({}, strictInput);
export const completeInfoResultSchema = z.object({ status: z.literal("ok"), viewer: viewerSchema });
export type CompleteInfoResult = z.infer<typeof completeInfoResultSchema>;

/** Same-origin paths only: `//host`, `/\\host`, schemes and control characters never leave the site. */
export function safeRedirectPath(value: unknown, fallback = "/"): string {
  if (typeof value !== "string" || value.length > 2048) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  // Control characters (tab, newline…) let browsers read `/\t/evil` as `//evil`.
  for (const ch of value) if (ch.charCodeAt(0) < 0x20 || ch === "\\") return fallback;
  try {
    const url = new URL(value, "http://site.invalid");
    if (url.origin !== "http://site.invalid") return fallback;
    const decoded = decodeURIComponent(url.pathname);
    if (decoded.startsWith("//") || decoded.includes("\\")) return fallback;
    for (const ch of decoded) if (ch.charCodeAt(0) < 0x20) return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}

/** A scan-code ticket's state as the API reports it (`expired` once an unfinished one outlives its time). */
export const qrStatusSchema = z.enum(["pending", "scanned", "confirmed", "cancelled", "consumed", "expired"]);

/** POST /api/auth/qr: a new ticket and its QR code (an SVG of `confirmUrl`). */
export const qrTicketCreatedSchema = z.object({
  ticket: z.string().min(1),
  confirmUrl: z.string(),
  qrSvg: z.string().startsWith("<svg"),
  expiresAt: z.string(),
});
export type QrTicketCreated = z.infer<typeof qrTicketCreatedSchema>;

/** GET /api/auth/qr/{ticket} on the phone: who asks to log in. */
export const qrTicketViewSchema = z.object({
  status: qrStatusSchema,
  requester: z.object({ device: z.string(), ip: z.string(), createdAt: z.string() }),
  expiresAt: z.string(),
});
export type QrTicketView = z.infer<typeof qrTicketViewSchema>;

export const qrDecisionSchema = z.object({ status: z.enum(["confirmed", "cancelled"]) });

/** GET /api/auth/wechat/config: whether WeChat login is offered (and with which app). */
export const wechatConfigSchema = z.union([
  z.object({ enabled: z.literal(true), appId: z.string() }),
  z.object({ enabled: z.literal(false) }),
]);

/** GET /api/auth/wechat/pending: a WeChat identity waiting for a phone to be linked to. */
export const wechatPendingSchema = z.union([
  z.object({ pending: z.literal(true), nickname: z.string().nullable(), expiresAt: z.string() }),
  z.object({ pending: z.literal(false) }),
]);

/** GET /api/auth/wechat/binding: whether this account has WeChat linked. */
export const wechatBindingSchema = z.union([
  z.object({ bound: z.literal(true), nickname: z.string().nullable() }),
  z.object({ bound: z.literal(false) }),
]);

/** 找回账号 by phone for an account without e-mail: phone login needs no password. */
export const PHONE_ONLY_RESET = "这个手机号账号用短信验证码登录，不需要密码：请返回登录，用手机号获取验证码即可登录。";
