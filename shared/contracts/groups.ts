/**
 * Group buying (/api/groups, /groupbuy/{groupNo}): campaigns on courses with a group price and
 * size; a group exists once its leader has paid, joiners' seats are held while they pay, a full
 * group enrols everyone, an expired one refunds everyone.
 */
import { z } from "zod";
import { INT4_MAX } from "../ids";

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

export const GROUP_MEMBER_STATES = ["held", "paid", "released", "refunded"] as const;
export type GroupMemberState = (typeof GROUP_MEMBER_STATES)[number];

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

const strictError = (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `不支持的字段：${(issue.keys ?? []).join("、")}` : undefined;

/** A course's running campaign as its page shows it (the course detail's `groupBuy`). */
export const groupCampaignSchema = z.object({
  campaignId: z.number().int(),
  /** Members a group needs, the leader included (2–10). */
  groupSize: z.number().int(),
  groupPriceCents: z.number().int(),
  /** Hours a group has to fill up, from its leader's payment. */
  validHours: z.number().int(),
});
export type GroupCampaign = z.infer<typeof groupCampaignSchema>;

/** GET /api/groups?courseId=: the course's groups one can still join. */
export const openGroupsQuerySchema = z.strictObject(
  {
    courseId: z
      .string("请指定课程")
      .regex(/^[1-9]\d{0,9}$/, "课程编号不正确")
      .transform(Number)
      .refine((n) => n <= INT4_MAX, "课程编号不正确"),
  },
  { error: (issue) => strictError(issue)?.replace("字段", "查询参数") },
);

/** A member as others see them: the avatar and a masked nickname (墨**员), never the account. */
export const groupPersonSchema = z.object({
  nickname: z.string(),
  avatarUrl: z.string().nullable(),
});
export type GroupPerson = z.infer<typeof groupPersonSchema>;

export const openGroupSchema = z.object({
  groupNo: z.string(),
  leader: groupPersonSchema,
  groupSize: z.number().int(),
  seatsLeft: z.number().int(),
  expiresAt: z.string(),
  /** The signed-in learner leads it or has a seat in it. */
  mine: z.boolean(),
});

export const openGroupListSchema = z.object({
  items: z.array(openGroupSchema),
  /** The server's clock: the countdowns run on it. */
  serverNow: z.string(),
});
export type OpenGroupList = z.infer<typeof openGroupListSchema>;

/** POST /api/groups: start a group of a campaign (the learner becomes its leader once they pay). */
export const startGroupSchema = z.strictObject(
  {
    campaignId: z
      .number("请选择拼团活动")
      .int("拼团活动不正确")
      .positive("拼团活动不正确")
      .max(INT4_MAX, "拼团活动不正确"),
  },
  { error: strictError },
);

/** POST /api/groups/{groupNo}/join: no fields. */
export const joinGroupSchema = z.strictObject({}, { error: strictError });

/**
 * The answer of starting or joining a group: the group order (as GET /api/orders/{orderNo}
 * shows it; `reused` when it is the learner's open one) and the group's number. Built from the
 * order schema by its users, because the orders contract imports this file.
 */
export const groupOrderResultSchema = <O extends z.ZodType>(order: O) =>
  z.object({ order, groupNo: z.string(), reused: z.boolean() });

export const groupMemberSchema = groupPersonSchema.extend({
  leader: z.boolean(),
  joinedAt: z.string(),
  /** Paid, and given the money back when the group did not fill up. */
  refunded: z.boolean(),
});

/** What the signed-in learner can do with the group. */
export const groupViewerSchema = z.object({
  isLeader: z.boolean(),
  memberState: z.enum(GROUP_MEMBER_STATES).nullable(),
  /** Their order in this group, and whether it can still be paid (继续支付). */
  orderNo: z.string().nullable(),
  payable: z.boolean(),
  canJoin: z.boolean(),
  /** Why they cannot join, in plain words (null when they can, or are in it). */
  reason: z.string().nullable(),
});

/** GET /api/groups/{groupNo}. */
export const groupDetailSchema = z.object({
  groupNo: z.string(),
  state: groupStateSchema,
  stateLabel: z.string(),
  groupSize: z.number().int(),
  validHours: z.number().int(),
  course: z.object({
    id: z.number().int(),
    title: z.string(),
    subtitle: z.string(),
    coverUrl: z.string(),
    priceCents: z.number().int(),
    groupPriceCents: z.number().int(),
    lessonsCount: z.number().int(),
    firstLessonId: z.number().int().nullable(),
  }),
  /** Members who paid, in the order they joined: real learners only. */
  members: z.array(groupMemberSchema),
  /** Seats held by learners who are paying right now (shown as 支付中). */
  paying: z.number().int(),
  seatsLeft: z.number().int(),
  /** Whether a learner could take a seat now (open, in time, a seat free). */
  joinable: z.boolean(),
  expiresAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  failedAt: z.string().nullable(),
  serverNow: z.string(),
  /** Null when signed out. */
  viewer: groupViewerSchema.nullable(),
});
export type GroupDetail = z.infer<typeof groupDetailSchema>;

/** Test fixtures only: make a group's time run out now and run the group job once. */
export const expireGroupFixtureSchema = z.strictObject(
  { groupNo: z.string("请指定团号").regex(GROUP_NO, "团号不正确") },
  { error: strictError },
);
