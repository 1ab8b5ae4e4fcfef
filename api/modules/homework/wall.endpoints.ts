/**
 * The homework that others may see: photos (to those allowed), the public wall and the share
 * pages of a work with their poster images, and hiding a work from the wall.
 */
import type { Response } from "express";
import {
  hideShareResultSchema,
  hideShareSchema,
  shareSchema,
  wallQuerySchema,
  wallSchema,
} from "../../../shared/contracts/homework";
import type { ApiContext } from "../../context";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { notFound } from "../../http";
import { photoBytes } from "./homework";
import { keyParam, photoParam } from "./params";
import { hideShare, posterOf, shareView, squarePosterOf, wall } from "./wall";

type ApiUser = Parameters<typeof photoBytes>[1];

export function homeworkWallEndpoints(ctx: ApiContext): Endpoint[] {
  const sendPhoto = async (res: Response, viewer: ApiUser, photoId: string, size: "display" | "thumb") => {
    const photo = await photoBytes(ctx, viewer, photoId, size);
    if (!photo) throw notFound("照片不存在");
    // Private photos stay in the viewer's browser only; wall photos may be cached briefly by anyone.
    res.setHeader("Cache-Control", photo.public ? "public, max-age=300" : "private, max-age=3600");
    res.setHeader("Vary", "Cookie");
    res.type("image/jpeg").send(photo.bytes);
  };

  return [
    defineEndpoint({
      method: "get",
      path: "/homework/photos/{photoId}/display",
      summary: "作业照片（长边 ≤ 2048 的 JPEG；本人、该课程老师和运营可见，作业墙上的作品公开，其他人 404）",
      tag: "homework",
      auth: false,
      params: photoParam,
      produces: "image/jpeg",
      handler: (_req, res, { auth, params }) => sendPhoto(res, auth?.user ?? null, params.photoId, "display"),
    }),
    defineEndpoint({
      method: "get",
      path: "/homework/photos/{photoId}/thumb",
      summary: "作业照片缩略图（长边 480 的 JPEG；权限同原图）",
      tag: "homework",
      auth: false,
      params: photoParam,
      produces: "image/jpeg",
      handler: (_req, res, { auth, params }) => sendPhoto(res, auth?.user ?? null, params.photoId, "thumb"),
    }),
    defineEndpoint({
      method: "get",
      path: "/homework/wall",
      summary: "作业墙：学员同意展示且获评优秀的作品，最新在前（游标分页，可按书体筛选）",
      tag: "homework",
      auth: false,
      query: wallQuerySchema,
      output: wallSchema,
      handler: async (_req, res, { query }) => {
        res.json(await wall(ctx, query));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/homework/share/{shareId}",
      summary: "作品分享页数据（作品撤下或被隐藏后 410）",
      tag: "homework",
      auth: false,
      params: { shareId: keyParam("分享 id") },
      output: shareSchema,
      handler: async (req, res, { auth, params }) => {
        res.json(await shareView(ctx, params.shareId, auth?.user.id ?? null));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/homework/share/{shareId}/poster.jpg",
      summary: "作品分享海报（JPEG：作品照片、评级印章、老师评语、指向分享页的二维码）",
      tag: "homework",
      auth: false,
      params: { shareId: keyParam("分享 id") },
      produces: "image/jpeg",
      handler: async (req, res, { params }) => {
        const poster = await posterOf(ctx, params.shareId);
        res.setHeader("Cache-Control", "public, max-age=300");
        res.type("image/jpeg").send(poster);
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/homework/share/{shareId}/square.jpg",
      summary: "作品分享方图（600×600 JPEG：作品照片，微信卡片用）",
      tag: "homework",
      auth: false,
      params: { shareId: keyParam("分享 id") },
      produces: "image/jpeg",
      handler: async (req, res, { params }) => {
        const square = await squarePosterOf(ctx, params.shareId);
        res.setHeader("Cache-Control", "public, max-age=300");
        res.type("image/jpeg").send(square);
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/homework/share/{shareId}/hide",
      summary: "运营：从作业墙隐藏作品（hidden: false 恢复显示）；分享页随之 410",
      tag: "homework",
      auth: true,
      params: { shareId: keyParam("分享 id") },
      input: hideShareSchema,
      output: hideShareResultSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        res.json(await hideShare(ctx, user, params.shareId, input.hidden));
      },
    }),
  ];
}
