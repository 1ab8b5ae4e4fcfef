/**
 * Learners and staff (/api/admin/users): operator role only. Every change is written to the audit
 * log in its transaction; an operator cannot disable themselves or revoke their own operator role.
 * Disabling, role changes and resetting two-factor login need a recent step-up (decision 072).
 */
import {
  adminUserChangeSchema,
  adminUserDetailSchema,
  adminUserPageSchema,
  adminUserQuerySchema,
  adminUserRoleSchema,
  adminUserStatusSchema,
} from "../../../shared/contracts/admin-users";
import type { ApiContext } from "../../context";
import { defineEndpoint, idParam, type Endpoint } from "../../endpoint";
import {
  adminUserDetail,
  changeUserRole,
  listAdminUsers,
  resetTwoFactorByOperator,
  revokeUserSessionsByOperator,
  setUserStatus,
} from "./users-admin";

const accountId = { id: idParam("账号编号", "账号不存在") };

export function adminUserEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    defineEndpoint({
      method: "get",
      path: "/admin/users",
      summary: "学员与员工：按手机号、邮箱、昵称或编号搜索，按角色、状态筛选，服务器端排序分页",
      tag: "admin",
      auth: true,
      role: "operator",
      query: adminUserQuerySchema,
      output: adminUserPageSchema,
      handler: async (_req, res, { query }) => {
        res.json(await listAdminUsers(ctx, query));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/admin/users/{id}",
      summary: "账号详情：订单、课程、登录中的会话",
      tag: "admin",
      auth: true,
      role: "operator",
      params: accountId,
      output: adminUserDetailSchema,
      handler: async (req, res, { auth: { user }, params }) => {
        res.json(await adminUserDetail(ctx, user.id, params.id));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/admin/users/{id}/disable",
      summary: "停用账号（写明原因）：所有会话立即结束，之后不能登录",
      tag: "admin",
      auth: true,
      role: "operator",
      stepUp: true,
      params: accountId,
      input: adminUserStatusSchema,
      output: adminUserChangeSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        res.json(await setUserStatus(ctx, user.id, params.id, "disabled", input.reason));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/admin/users/{id}/enable",
      summary: "启用已停用的账号（写明原因）",
      tag: "admin",
      auth: true,
      role: "operator",
      params: accountId,
      input: adminUserStatusSchema,
      output: adminUserChangeSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        res.json(await setUserStatus(ctx, user.id, params.id, "active", input.reason));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/admin/users/{id}/sessions/revoke",
      summary: "结束账号的全部登录会话（需重新登录）",
      tag: "admin",
      auth: true,
      role: "operator",
      params: accountId,
      output: adminUserChangeSchema,
      handler: async (req, res, { auth: { user }, params }) => {
        res.json(await revokeUserSessionsByOperator(ctx, user.id, params.id));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/admin/users/{id}/role",
      summary: "授予或撤销老师、运营角色（不能撤销自己的运营角色）",
      tag: "admin",
      auth: true,
      role: "operator",
      stepUp: true,
      params: accountId,
      input: adminUserRoleSchema,
      output: adminUserChangeSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        res.json(await changeUserRole(ctx, user.id, params.id, input));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/admin/users/{id}/two-factor/reset",
      summary: "重置两步验证（手机丢失时；写明原因）：密钥和恢复码作废，账号凭密码或验证码登录后重新开启",
      tag: "admin",
      auth: true,
      role: "operator",
      stepUp: true,
      params: accountId,
      input: adminUserStatusSchema,
      output: adminUserChangeSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        res.json(await resetTwoFactorByOperator(ctx, user.id, params.id, input.reason));
      },
    }),
  ];
}
