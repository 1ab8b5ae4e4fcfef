/**
 * Learners and staff (/api/admin/users): search, an account's detail (orders, courses, sign-in
 * sessions), disable and enable, end its sessions, grant and revoke the teacher and operator roles.
 */
import { z } from "zod";
import { pagedOf, staffPageQuery } from "./staff";

const strictError = (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `不支持的字段：${(issue.keys ?? []).join("、")}` : undefined;

const blankAsUndefined = (v: unknown) => (v === "" ? undefined : v);

export const USER_ROLES = ["learner", "teacher", "operator"] as const;
export const USER_ROLE_LABELS: Record<(typeof USER_ROLES)[number], string> = {
  learner: "学员",
  teacher: "老师",
  operator: "运营",
};
export const USER_STATUSES = ["active", "disabled", "deleting", "deleted"] as const;
export const USER_STATUS_LABELS: Record<(typeof USER_STATUSES)[number], string> = {
  active: "正常",
  disabled: "已停用",
  deleting: "注销中",
  deleted: "已注销",
};
const ADMIN_USER_SORTS = ["createdAt", "id", "nickname"] as const;

export const adminUserQuerySchema = staffPageQuery.extend({
  sort: z.preprocess(blankAsUndefined, z.enum(ADMIN_USER_SORTS, "不支持的排序").optional()),
  role: z.preprocess(blankAsUndefined, z.enum(USER_ROLES, "不支持的角色").optional()),
  status: z.preprocess(blankAsUndefined, z.enum(USER_STATUSES, "不支持的状态").optional()),
});
export type AdminUserQuery = z.infer<typeof adminUserQuerySchema>;

const adminUserRowSchema = z.object({
  id: z.number().int(),
  nickname: z.string(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  role: z.enum(USER_ROLES),
  status: z.enum(USER_STATUSES),
  createdAt: z.string(),
  orders: z.number().int(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;
export const adminUserPageSchema = pagedOf(adminUserRowSchema);
export type AdminUserPage = z.infer<typeof adminUserPageSchema>;

export const adminUserDetailSchema = z.object({
  user: adminUserRowSchema.omit({ orders: true }).extend({
    gender: z.string().nullable(),
    region: z.string().nullable(),
    updatedAt: z.string(),
    /** Two-factor login is on (an operator can reset it for someone who lost the phone). */
    twoFactor: z.boolean(),
  }),
  orders: z.object({
    total: z.number().int(),
    paidCents: z.number().int(),
    recent: z.array(
      z.object({
        orderNo: z.string(),
        title: z.string(),
        payCents: z.number().int(),
        stateLabel: z.string(),
        createdAt: z.string(),
      }),
    ),
  }),
  courses: z.array(z.object({ id: z.number().int(), title: z.string(), source: z.string(), createdAt: z.string() })),
  sessions: z.array(
    z.object({
      id: z.string(),
      userAgent: z.string(),
      ip: z.string(),
      createdAt: z.string(),
      lastSeenAt: z.string(),
    }),
  ),
  /** Whether the viewing operator may change this account (not their own role or status). */
  self: z.boolean(),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

/** The reason an operator gives for disabling, enabling, or resetting two-factor login. */
export const adminUserStatusSchema = z.strictObject(
  {
    reason: z.string("请填写原因").trim().min(2, "请填写原因（至少 2 个字）").max(200, "原因最多 200 字"),
  },
  { error: strictError },
);

export const adminUserRoleSchema = z.strictObject(
  {
    action: z.enum(["grant", "revoke"], "请选择授予或撤销"),
    role: z.enum(["teacher", "operator"], "只能授予或撤销老师、运营角色"),
  },
  { error: strictError },
);
export type AdminUserRoleInput = z.infer<typeof adminUserRoleSchema>;

export const adminUserChangeSchema = z.object({
  user: adminUserDetailSchema.shape.user,
  changed: z.boolean(),
  sessionsEnded: z.number().int(),
});
