/**
 * Gifts (/api/gifts): a course bought for someone else. The buyer pays a gift order and gets a
 * claim link and code; a signed-in recipient claims it once and is enrolled; an unclaimed gift
 * can be refunded once its 30-day claim window has passed.
 */
import { z } from "zod";
import { INT4_MAX } from "../ids";

/** Days a paid gift can be claimed; after them an unclaimed gift can be refunded. */
export const GIFT_CLAIM_DAYS = 30;

export const GIFT_STATES = ["pending_payment", "unclaimed", "claimed", "refunding", "refunded", "cancelled"] as const;
export const giftStateSchema = z.enum(GIFT_STATES);
export type GiftState = z.infer<typeof giftStateSchema>;

export const GIFT_STATE_LABELS: Record<GiftState, string> = {
  pending_payment: "待支付",
  unclaimed: "待领取",
  claimed: "已领取",
  refunding: "退款中",
  refunded: "已退款",
  cancelled: "已取消",
};

/** What the buyer sees of a gift on the order (detail pop-up, payment result). */
export const giftInfoSchema = z.object({
  code: z.string(),
  /** The claim link's path (`/course/{id}?gift={code}`); the page makes it absolute. */
  claimPath: z.string(),
  state: giftStateSchema,
  stateLabel: z.string(),
  message: z.string(),
  claimUntil: z.string().nullable(),
  claimedBy: z.string().nullable(),
  claimedAt: z.string().nullable(),
  /** Whether the buyer may ask for the money back now, and why not in plain words. */
  refund: z.object({ allowed: z.boolean(), reason: z.string() }),
});
export type GiftInfo = z.infer<typeof giftInfoSchema>;

const strictError = (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `不支持的字段：${(issue.keys ?? []).join("、")}` : undefined;

/** Characters of a claim code: Crockford's base32 (no I, L, O, U: nothing to misread when typed). */
export const GIFT_CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const GIFT_CODE_LENGTH = 12;
/** The longest message a buyer can add to a gift. */
export const GIFT_MESSAGE_MAX = 100;
export const GIFT_NOT_FOUND = "礼物不存在或领取码有误";

/**
 * A code as typed or linked (any case, with or without dashes or spaces, O for 0 and I/L for 1,
 * as Crockford's base32 reads them) in its stored form, or null when it cannot be a code.
 */
export function normalizeGiftCode(raw: string): string | null {
  const code = raw.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  if (code.length !== GIFT_CODE_LENGTH) return null;
  for (const ch of code) if (!GIFT_CODE_ALPHABET.includes(ch)) return null;
  return code;
}

/** `XXXX-XXXX-XXXX`, as shown and linked. */
export function formatGiftCode(code: string): string {
  return code.replace(/(.{4})(?=.)/g, "$1-");
}

export function giftClaimPath(courseId: number, code: string): string {
  return `/course/${courseId}?gift=${formatGiftCode(code)}`;
}

/** A claim code in a path or a form: normalised, or the one refusal for anything unknown. */
export const giftCodeSchema = z
  .string(GIFT_NOT_FOUND)
  .max(40, GIFT_NOT_FOUND)
  .transform((raw, ctx) => {
    const code = normalizeGiftCode(raw);
    if (code === null) {
      ctx.addIssue({ code: "custom", message: GIFT_NOT_FOUND });
      return z.NEVER;
    }
    return code;
  });

/** POST /api/gifts: buy a course for someone else (the answer is the order to pay, as POST /api/orders gives). */
export const createGiftSchema = z.strictObject(
  {
    courseId: z
      .number("请选择要赠送的课程")
      .int("课程编号不正确")
      .positive("课程编号不正确")
      .max(INT4_MAX, "课程编号不正确"),
    message: z
      .string("赠言必须是文字")
      .trim()
      .max(GIFT_MESSAGE_MAX, `赠言最多 ${GIFT_MESSAGE_MAX} 字`)
      // Control characters other than line breaks cannot be shown.
      .refine((s) => !/[^\P{Cc}\n]/u.test(s), "赠言包含无法显示的字符")
      .default(""),
  },
  { error: strictError },
);
export type CreateGiftInput = z.input<typeof createGiftSchema>;

/** POST /api/gifts/{code}/refund: the reason is optional (an unclaimed gift needs none). */
export const giftRefundSchema = z.strictObject(
  {
    reason: z
      .string("退款原因必须是文字")
      .trim()
      .max(200, "退款原因最多 200 字")
      .optional()
      .transform((s) => (s ? s : "礼物超过领取期限未被领取")),
  },
  { error: strictError },
);
export type GiftRefundInput = z.input<typeof giftRefundSchema>;

/** GET /api/gifts/{code}: the gift as its recipient sees it. */
export const giftViewSchema = z.object({
  code: z.string(),
  course: z.object({
    id: z.number().int(),
    title: z.string(),
    subtitle: z.string(),
    teacherName: z.string(),
    lessonsCount: z.number().int(),
    coverUrl: z.string(),
    priceCents: z.number().int(),
    /** The course's category name (楷书, 写作…): the dialog says what kind of course was given. */
    categoryName: z.string(),
  }),
  /** The buyer, with the nickname partly hidden. */
  giver: z.object({ nickname: z.string(), avatarUrl: z.string().nullable() }),
  message: z.string(),
  state: giftStateSchema,
  stateLabel: z.string(),
  claimUntil: z.string().nullable(),
  /** The signed-in viewer is the one who bought it. */
  mine: z.boolean(),
  /** The signed-in viewer is the one who claimed it. */
  claimedByViewer: z.boolean(),
  /** Whether the signed-in viewer can claim it now, and why not in plain words (null for visitors). */
  claim: z.object({ allowed: z.boolean(), reason: z.string() }).nullable(),
});
export type GiftView = z.infer<typeof giftViewSchema>;

/** POST /api/gifts/{code}/claim. */
export const giftClaimResultSchema = z.object({
  courseId: z.number().int(),
  courseTitle: z.string(),
  /** Where learning starts (the course's first lesson). */
  firstLessonId: z.number().int().nullable(),
});
export type GiftClaimResult = z.infer<typeof giftClaimResultSchema>;
