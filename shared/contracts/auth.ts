/** Login and account contracts, shared by the API and the login dialog's forms. */
import { z } from "zod";

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

export const smsSendSchema = z.strictObject({ phone: phoneSchema, purpose: codePurposeSchema.default("login") });
export const smsLoginSchema = z.strictObject({ phone: phoneSchema, code: otpCodeSchema });

/** What every successful login answers; `next` names the panel the dialog opens afterwards. */
export const loginResultSchema = z.object({
  status: z.literal("ok"),
  next: z.enum(["complete_info"]).nullable(),
});
export type LoginResult = z.infer<typeof loginResultSchema>;

export const codeSentSchema = z.object({ status: z.literal("sent"), cooldownSeconds: z.number().int() });
export type CodeSent = z.infer<typeof codeSentSchema>;

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
