/**
 * The operator's coupon templates (/api/admin/coupons): list, create, edit, retire, and issue to
 * learners (an Idempotency-Key per batch: repeating it gives nobody a second coupon). Operators
 * only; every change is audited.
 */
import {
  couponIssueResultSchema,
  couponIssueSchema,
  couponListQuery,
  couponTemplateAdminSchema,
  couponTemplateInputSchema,
  couponTemplatePageSchema,
} from "../../../shared/contracts/staff-commerce";
import type { ApiContext } from "../../context";
import { defineEndpoint, idParam, type Endpoint } from "../../endpoint";
import { idempotencyKeyOf, idempotentResponder } from "../../idempotency";
import { createTemplate, issueCoupons, listTemplates, retireTemplate, template, updateTemplate } from "./admin";

const templateId = { id: idParam("优惠券模板编号", "优惠券模板不存在") };

export function couponAdminEndpoints(ctx: ApiContext): Endpoint[] {
  const common = { tag: "admin", auth: true, role: "operator" } as const;
  const idempotent = idempotentResponder(ctx.database);
  return [
    defineEndpoint({
      ...common,
      method: "get",
      path: "/admin/coupons",
      summary: "运营：优惠券模板（分页、排序、按名称搜索、按启用/停用筛选）",
      query: couponListQuery,
      output: couponTemplatePageSchema,
      handler: async (_req, res, { query }) => {
        res.json(await listTemplates(ctx, query));
      },
    }),
    defineEndpoint({
      ...common,
      method: "get",
      path: "/admin/coupons/{id}",
      summary: "运营：一个优惠券模板",
      params: templateId,
      output: couponTemplateAdminSchema,
      handler: async (req, res, { params }) => {
        res.json(await template(ctx, params.id));
      },
    }),
    defineEndpoint({
      ...common,
      method: "post",
      path: "/admin/coupons",
      summary: "运营：新建优惠券模板（满减或折扣、门槛、适用范围、有效期、总量、每人限领）",
      input: couponTemplateInputSchema,
      output: couponTemplateAdminSchema,
      handler: async (_req, res, { auth: { user }, input }) => {
        res.status(201).json(await createTemplate(ctx, user.id, input));
      },
    }),
    defineEndpoint({
      ...common,
      method: "put",
      path: "/admin/coupons/{id}",
      summary: "运营：修改优惠券模板（已发出的券按领取时的规则不变；已停用的不能改）",
      params: templateId,
      input: couponTemplateInputSchema,
      output: couponTemplateAdminSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        res.json(await updateTemplate(ctx, user.id, params.id, input));
      },
    }),
    defineEndpoint({
      ...common,
      method: "post",
      path: "/admin/coupons/{id}/retire",
      summary: "运营：停用优惠券模板（不再可领、不再发放；已领的券仍可用到期）",
      params: templateId,
      output: couponTemplateAdminSchema,
      handler: async (req, res, { auth: { user }, params }) => {
        res.json(await retireTemplate(ctx, user.id, params.id));
      },
    }),
    defineEndpoint({
      ...common,
      method: "post",
      path: "/admin/coupons/{id}/issue",
      summary:
        "运营：向学员发券（手机号、邮箱或学员编号，每行一个，一次最多 500 人；需要 Idempotency-Key，同一批次重复提交不会重复发放）",
      params: templateId,
      input: couponIssueSchema,
      output: couponIssueResultSchema,
      handler: async (req, res, { auth: { user }, input, params: { id } }) => {
        const key = idempotencyKeyOf(req);
        await idempotent(req, res, user.id, `POST /admin/coupons/${id}/issue`, input, () =>
          issueCoupons(ctx, user.id, id, input.recipients, key),
        );
      },
    }),
  ];
}
