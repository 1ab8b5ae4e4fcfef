/**
 * Group buying (/api/groups, /groupbuy/{groupNo}): campaigns on courses with a group price and
 * size; a group exists once its leader has paid, joiners' seats are held while they pay, a full
 * group enrols everyone, an expired one refunds everyone.
 */
import { z } from "zod";

/** `GB` + 14 digits. */
export const GROUP_NO = /^GB\d{14}$/;
/** Minutes a joiner's seat is held (and a group order stays open) while they pay. */
export const GROUP_PAY_MINUTES = 15;

export const GROUP_STATES = ["forming", "open", "complete", "failed", "abandoned"] as const;
export const groupStateSchema = z.enum(GROUP_STATES);
export type GroupState = z.infer<typeof groupStateSchema>;

export const GROUP_STATE_LABELS: Record<GroupState, string> = {
  forming: "待团长支付",
  open: "拼团中",
  complete: "已成团",
  failed: "未成团",
  abandoned: "已取消",
};

/** What an order shows of its group (detail pop-up, payment result). */
export const groupInfoSchema = z.object({
  groupNo: z.string(),
  state: groupStateSchema,
  stateLabel: z.string(),
  groupSize: z.number().int(),
  paidCount: z.number().int(),
  expiresAt: z.string().nullable(),
});
export type GroupInfo = z.infer<typeof groupInfoSchema>;
