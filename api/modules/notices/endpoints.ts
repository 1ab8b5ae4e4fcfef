/** Notices (/api/notices): the latest ones with the unread count, and marking them read. */
import {
  type NoticeList,
  noticeListSchema,
  noticesReadResultSchema,
  noticesReadSchema,
} from "../../../shared/contracts/me";
import type { ApiContext } from "../../context";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { listNotices, markNoticesRead } from "./notices";

export function noticeEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    defineEndpoint({
      method: "get",
      path: "/notices",
      summary: "最近 20 条通知与未读数",
      tag: "notices",
      auth: true,
      output: noticeListSchema,
      handler: async (_req, res, { auth: { user } }) => {
        res.json((await listNotices(ctx, user.id)) satisfies NoticeList);
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/notices/read",
      summary: "标记通知已读（不传 ids 则全部）",
      tag: "notices",
      auth: true,
      input: noticesReadSchema,
      output: noticesReadResultSchema,
      handler: async (_req, res, { auth: { user }, input: { ids } }) => {
        res.json({ unread: await markNoticesRead(ctx, user.id, ids) });
      },
    }),
  ];
}
