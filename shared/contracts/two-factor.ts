/**
 * Two-factor login for staff (decision 072) and step-up: an authenticator app's 6-digit codes,
 * recovery codes for a lost phone, and proving the password or a code again before money moves
 * and account changes.
 */
import { z } from "zod";

/** Recovery codes: ten characters of this alphabet (no 0/o, 1/l/i), shown as `xxxxx-xxxxx`. */
export const RECOVERY_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz";
export const RECOVERY_CODE_COUNT = 10;

/** What the learner typed, without spaces and dashes, lower case. */
export const compactCode = (value: string) => value.replace(/[\s-]/g, "").toLowerCase();

export const isTotpCode = (value: string) => /^\d{6}$/.test(value);
export const isRecoveryCode = (value: string) => new RegExp(`^[${RECOVERY_ALPHABET}]{10}$`).test(value);

const strictInput = {
  error: (issue: { code?: string }) =>
    issue.code === "unrecognized_keys"
      ? "包含不支持的字段"
      : issue.code === "invalid_type"
        ? "请求内容格式不正确"
        : undefined,
};

/** The 6 digits the authenticator app shows now. */
export const totpCodeSchema = z
  .string({ error: "请输入验证器上的 6 位数字" })
  .transform(compactCode)
  .pipe(z.string().regex(/^\d{6}$/, "请输入验证器上的 6 位数字"));

/** A code from the app, or one of the recovery codes (the login's second step, turning it off). */
export const secondFactorCodeSchema = z
  .string({ error: "请输入 6 位验证码或恢复码" })
  .max(40, "请输入 6 位验证码或恢复码")
  .transform(compactCode)
  .pipe(z.string().refine((v) => isTotpCode(v) || isRecoveryCode(v), "请输入 6 位验证码或恢复码"));

export const twoFactorLoginSchema = z.strictObject({ code: secondFactorCodeSchema }, strictInput);
export const twoFactorEnableSchema = z.strictObject({ code: totpCodeSchema }, strictInput);
export const twoFactorDisableSchema = z.strictObject({ code: secondFactorCodeSchema }, strictInput);
export const recoveryCodesRenewSchema = z.strictObject({ code: totpCodeSchema }, strictInput);

/** The security page's section: on or off, whether this account must have it, codes left. */
export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  /** An operator of the `pro` site: it cannot be turned off, and must be on before anything else. */
  required: z.boolean(),
  enabledAt: z.string().nullable(),
  recoveryCodesLeft: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** A new secret to scan (the QR code) or type in (the secret as text). */
export const twoFactorSetupSchema = z.object({
  secret: z.string(),
  /** The otpauth:// link the QR code holds. */
  uri: z.string(),
  qrSvg: z.string(),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

/** Shown once, never again: the server keeps only their hashes. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** Step-up: the password or the app's current code. */
export const stepUpSchema = z.discriminatedUnion(
  "method",
  [
    z.strictObject(
      {
        method: z.literal("password"),
        password: z.string({ error: "请输入登录密码" }).min(1, "请输入登录密码").max(128, "密码太长"),
      },
      strictInput,
    ),
    z.strictObject({ method: z.literal("code"), code: totpCodeSchema }, strictInput),
  ],
  { error: "请选择用登录密码或两步验证码验证" },
);
export type StepUpInput = z.infer<typeof stepUpSchema>;

/** Which ways this account can prove itself, and until when it already has. */
export const stepUpStateSchema = z.object({
  password: z.boolean(),
  code: z.boolean(),
  /** The end of the 10 minutes the last proof gives; null when there is none. */
  until: z.string().nullable(),
});
export type StepUpState = z.infer<typeof stepUpStateSchema>;
