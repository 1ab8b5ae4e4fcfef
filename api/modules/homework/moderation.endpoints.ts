/** The operator's moderation of the homework wall (/api/admin/moderation/works): list, hide, show. */
import { hideShareResultSchema } from "../../../shared/contracts/homework";
import { hideWorkSchema, wallWorkPageSchema, wallWorkQuery } from "../../../shared/contracts/feedback";
import type { ApiContext } from "../../context";
import { defineEndpoint, textParam, type Endpoint } from "../../endpoint";
import { wallWorks } from "./moderation";
import { hideShare } from "./wall";

export function moderationEndpoints(ctx: ApiContext): Endpoint[] {
  const common = { tag: "admin", auth: true, role: "operator" } as const;
  return [
    defineEndpoint({
      ...common,
      method: "get",
      path: "/admin/moderation/works",
      summary: "运营：作业墙上的作品（含已隐藏；按学员、课程搜索，按显示状态筛选）",
      query: wallWorkQuery,
      output: wallWorkPageSchema,
      handler: async (_req, res, { query }) => {
        res.json(await wallWorks(ctx, query));
      },
    }),
    defineEndpoint({
      ...common,
      method: "post",
      path: "/admin/moderation/works/{shareId}/hide",
      summary: "运营：从作业墙隐藏作品（hidden: false 恢复显示），可写原因；分享页随之 410",
      params: { shareId: textParam(/^[A-Za-z0-9_-]{16}$/, "分享 id", "作品不存在") },
      input: hideWorkSchema,
      output: hideShareResultSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        res.json(await hideShare(ctx, user, params.shareId, input.hidden, input.reason));
      },
    }),
  ];
}
