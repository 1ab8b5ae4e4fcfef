/**
 * The endpoints every catalogue item has (courses, books, stationery): read it by id, change it,
 * upload its cover. Each item kind says what its path, words and storage functions are.
 */
import type { z } from "zod";
import { AVATAR_MAX_BYTES, AVATAR_TYPES } from "../../../shared/contracts/me";
import { coverResultSchema } from "../../../shared/contracts/admin-catalogue";
import type { ApiContext } from "../../context";
import { defineEndpoint, idParam, type Endpoint } from "../../endpoint";
import { type COVER_SIZES, coverUploadBefore, dropCover, operatorOnly, storeCover } from "./common";

interface ItemKind<T> {
  /** `/admin/books`: the item is at `{path}/{id}`. */
  path: string;
  /** The id's description in the document (`图书编号`). */
  idDescription: string;
  detailSummary: string;
  patchSummary: string;
  patchInput: z.ZodType<T>;
  output: z.ZodType;
  /** The item as the console shows it (404 when there is none). */
  load: (id: number) => Promise<unknown>;
  update: (actorId: number, id: number, input: T) => Promise<unknown>;
}

/** GET and PATCH `{path}/{id}`: the item, and a change answered with the changed item. */
export function itemEndpoints<T>(item: ItemKind<T>): Endpoint[] {
  const params = { id: idParam(item.idDescription) };
  return [
    defineEndpoint({
      ...operatorOnly,
      method: "get",
      path: `${item.path}/{id}`,
      summary: item.detailSummary,
      params,
      output: item.output,
      handler: async (_req, res, { params: { id } }) => {
        res.json(await item.load(id));
      },
    }),
    defineEndpoint({
      ...operatorOnly,
      method: "patch",
      path: `${item.path}/{id}`,
      summary: item.patchSummary,
      params,
      input: item.patchInput,
      output: item.output,
      handler: async (_req, res, { auth: { user }, input, params: { id } }) => {
        await item.update(user.id, id, input);
        res.json(await item.load(id));
      },
    }),
  ];
}

interface CoverKind {
  path: string;
  idDescription: string;
  summary: string;
  size: keyof typeof COVER_SIZES;
  /** Throws 404 when there is no such item. */
  load: (id: number) => Promise<unknown>;
  /** Stores the new cover's address; answers the replaced one. */
  save: (actorId: number, id: number, url: string) => Promise<string | null | undefined>;
}

/** POST `{path}/{id}/cover`: a new cover, re-encoded to the kind's size; the old one is removed. */
export function coverEndpoint(ctx: ApiContext, cover: CoverKind): Endpoint {
  return defineEndpoint({
    ...operatorOnly,
    method: "post",
    path: `${cover.path}/{id}/cover`,
    summary: cover.summary,
    params: { id: idParam(cover.idDescription) },
    raw: { binary: AVATAR_TYPES, maxBytes: AVATAR_MAX_BYTES },
    before: coverUploadBefore(),
    output: coverResultSchema,
    handler: async (req, res, { auth: { user }, params: { id } }) => {
      await cover.load(id);
      const url = await storeCover(ctx, req.body, cover.size);
      dropCover(ctx, await cover.save(user.id, id, url), req);
      res.json({ coverImage: url });
    },
  });
}
