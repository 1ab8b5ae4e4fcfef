/**
 * The operator's group-buy campaigns (/api/admin/campaigns): list, create, edit, end. Operators
 * only; every change is audited.
 */
import {
  campaignAdminSchema,
  campaignInputSchema,
  campaignListQuery,
  campaignPageSchema,
} from "../../../shared/contracts/staff-commerce";
import type { ApiContext } from "../../context";
import { defineEndpoint, idParam, type Endpoint } from "../../endpoint";
import { campaign, createCampaign, endCampaign, listCampaigns, updateCampaign } from "./admin";

const campaignId = { id: idParam("拼团活动编号", "拼团活动不存在") };

export function campaignAdminEndpoints(ctx: ApiContext): Endpoint[] {
  const common = { tag: "admin", auth: true, role: "operator" } as const;
  return [
    defineEndpoint({
      ...common,
      method: "get",
      path: "/admin/campaigns",
      summary: "运营：拼团活动（分页、排序、按课程搜索、按未开始/进行中/已结束筛选；含进行中和已成团的团数）",
      query: campaignListQuery,
      output: campaignPageSchema,
      handler: async (_req, res, { query }) => {
        res.json(await listCampaigns(ctx, query));
      },
    }),
    defineEndpoint({
      ...common,
      method: "get",
      path: "/admin/campaigns/{id}",
      summary: "运营：一个拼团活动",
      params: campaignId,
      output: campaignAdminSchema,
      handler: async (req, res, { params }) => {
        res.json(await campaign(ctx, params.id));
      },
    }),
    defineEndpoint({
      ...common,
      method: "post",
      path: "/admin/campaigns",
      summary: "运营：新建拼团活动（课程、成团人数、拼团价、组团时限、起止时间）",
      input: campaignInputSchema,
      output: campaignAdminSchema,
      handler: async (_req, res, { auth: { user }, input }) => {
        res.status(201).json(await createCampaign(ctx, user.id, input));
      },
    }),
    defineEndpoint({
      ...common,
      method: "put",
      path: "/admin/campaigns/{id}",
      summary: "运营：修改拼团活动（对之后开的团生效；已结束的不能改）",
      params: campaignId,
      input: campaignInputSchema,
      output: campaignAdminSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        res.json(await updateCampaign(ctx, user.id, params.id, input));
      },
    }),
    defineEndpoint({
      ...common,
      method: "post",
      path: "/admin/campaigns/{id}/end",
      summary: "运营：立即结束拼团活动（不能再开新团；已开的团按各自时限进行）",
      params: campaignId,
      output: campaignAdminSchema,
      handler: async (req, res, { auth: { user }, params }) => {
        res.json(await endCampaign(ctx, user.id, params.id));
      },
    }),
  ];
}
