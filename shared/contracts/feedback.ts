/**
 * 意见反馈 (/protocol/feedback → POST /api/feedback) and the operator's inbox and moderation of
 * the homework wall (/api/admin/feedback, /api/admin/moderation).
 */
import { z } from "zod";
import { adminListQuery, pageOfRows } from "./staff-commerce";

const strictError = (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `不支持的字段：${(issue.keys ?? []).join("、")}` : undefined;

export const FEEDBACK_CATEGORIES = [
  { value: "course", label: "课程内容" },
  { value: "live", label: "直播与回放" },
  { value: "homework", label: "作业批改" },
  { value: "order", label: "订单与支付" },
  { value: "account", label: "账号与登录" },
  { value: "site", label: "网站使用" },
  { value: "other", label: "其他" },
] as const;
export type FeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number]["value"];
const categoryValues = FEEDBACK_CATEGORIES.map((c) => c.value) as [FeedbackCategory, ...FeedbackCategory[]];
export const feedbackCategoryLabel = (value: string) =>
  FEEDBACK_CATEGORIES.find((c) => c.value === value)?.label ?? "其他";

const FEEDBACK_CONTENT_MIN = 5;
const FEEDBACK_CONTENT_MAX = 500;
const PHONE = /^1\d{10}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const feedbackInputSchema = z.strictObject(
  {
    category: z.enum(categoryValues, "请选择反馈类型"),
    content: z
      .string("请填写反馈内容")
      .trim()
      .min(1, "请填写反馈内容")
      .min(FEEDBACK_CONTENT_MIN, `请再多写几句，至少 ${FEEDBACK_CONTENT_MIN} 个字`)
      .max(FEEDBACK_CONTENT_MAX, `反馈内容最多 ${FEEDBACK_CONTENT_MAX} 字`),
    contact: z
      .string("联系方式不正确")
      .trim()
      .max(100, "联系方式最多 100 字")
      .refine(
        (v) => v === "" || PHONE.test(v.replace(/[\s-]/g, "")) || EMAIL.test(v),
        "请填写 11 位手机号或有效的电子邮箱，也可以留空",
      )
      .default(""),
  },
  { error: strictError },
);
export type FeedbackInput = z.input<typeof feedbackInputSchema>;
export const feedbackResultSchema = z.object({ id: z.number().int(), message: z.string() });
export const FEEDBACK_THANKS = "反馈已收到，谢谢你！我们会认真查看每一条反馈";
/** Per client address and per account, in an hour. */
export const FEEDBACK_PER_HOUR = 5;

export const feedbackRowSchema = z.object({
  id: z.number().int(),
  category: z.string(),
  categoryLabel: z.string(),
  content: z.string(),
  contact: z.string().nullable(),
  userId: z.number().int().nullable(),
  nickname: z.string().nullable(),
  state: z.enum(["open", "handled"]),
  reply: z.string().nullable(),
  repliedAt: z.string().nullable(),
  handledAt: z.string().nullable(),
  createdAt: z.string(),
});
export type FeedbackRow = z.infer<typeof feedbackRowSchema>;
export const feedbackPageSchema = pageOfRows(feedbackRowSchema);
export const feedbackListQuery = adminListQuery.extend({
  state: z.enum(["open", "handled", "all"], "处理状态筛选不正确").default("open"),
  category: z.enum(categoryValues, "反馈类型筛选不正确").optional(),
});
export const feedbackReplySchema = z.strictObject(
  { reply: z.string("请填写回复").trim().min(2, "请填写回复（至少 2 个字）").max(500, "回复最多 500 字") },
  { error: strictError },
);
export const feedbackHandleSchema = z.strictObject({ handled: z.boolean("处理状态不正确") }, { error: strictError });
export const FEEDBACK_NOTICE_TITLE = "你的意见反馈有了回复";

const wallWorkSchema = z.object({
  shareId: z.string(),
  nickname: z.string(),
  courseTitle: z.string(),
  script: z.string(),
  comment: z.string(),
  thumbUrl: z.string(),
  excellentAt: z.string().nullable(),
  hidden: z.boolean(),
  hiddenAt: z.string().nullable(),
});
export type WallWork = z.infer<typeof wallWorkSchema>;
export const wallWorkPageSchema = pageOfRows(wallWorkSchema);
export const wallWorkQuery = adminListQuery.extend({
  hidden: z.enum(["all", "shown", "hidden"], "显示状态筛选不正确").default("all"),
});
export const hideWorkSchema = z.strictObject(
  {
    hidden: z.boolean("请说明隐藏还是恢复"),
    reason: z.string("原因不正确").trim().max(100, "原因最多 100 字").optional(),
  },
  { error: strictError },
);
