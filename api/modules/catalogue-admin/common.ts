/** What the staff catalogue endpoints share: the operator's endpoint base, covers, paging. */
import type { Request, RequestHandler } from "express";
import type { Kysely, SelectQueryBuilder, Transaction } from "kysely";
import type { Paged, StaffPageQuery } from "../../../shared/contracts/staff";
import { pageOf, type Sorting } from "../../list-page";
import { AVATAR_MAX_BYTES } from "../../../shared/contracts/me";
import type { ApiContext } from "../../context";
import type { DB } from "../../db/schema";
import { holdsRole } from "../../endpoint";
import { ApiError, forbidden, rawUpload } from "../../http";
import { requireAuth } from "../../request-auth";
import { avatarStorageFor } from "../../providers/storage";
import { reencodeImage, unsupportedImage } from "../../images";

export type Db = Kysely<DB> | Transaction<DB>;

/** What every operator catalogue endpoint is: tagged admin, signed in, operators only. */
export const operatorOnly = { tag: "admin", auth: true, role: "operator" } as const;

export const conflict = (message: string, code = "conflict") => new ApiError(409, code, message);

/** Cover uploads: operators only, checked before the bytes are read, then read whole up to 5 MB. */
export function coverUploadBefore(): RequestHandler[] {
  return [
    (req, res, next) => {
      try {
        if (!holdsRole(requireAuth(req, res).user.role, "operator")) throw forbidden();
        next();
      } catch (err) {
        next(err);
      }
    },
    rawUpload("image", AVATAR_MAX_BYTES),
  ];
}

export const COVER_SIZES = {
  course: { width: 960, height: 540 },
  book: { width: 600, height: 800 },
  commodity: { width: 800, height: 800 },
} as const;

/** Re-encodes an uploaded cover (the avatar's checks) and stores it beside the avatars; returns its path. */
export async function storeCover(ctx: ApiContext, body: unknown, kind: keyof typeof COVER_SIZES): Promise<string> {
  if (!Buffer.isBuffer(body)) throw unsupportedImage("封面");
  if (body.length === 0) throw new ApiError(400, "invalid_input", "请选择一张图片");
  const image = await reencodeImage(body, { ...COVER_SIZES[kind], what: "封面" });
  return avatarStorageFor(ctx).save(image);
}

/** Removes a replaced cover (never fails the request that replaced it). */
export function dropCover(ctx: ApiContext, url: string | null | undefined, req: Request): void {
  if (!url) return;
  avatarStorageFor(ctx)
    .remove(url)
    .catch((err: unknown) => req.log?.warn({ err }, "old cover was not removed"));
}

/** `%text%` for ILIKE with the pattern characters of the text escaped. */
export const likeOf = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The foundation's page of a staff table, for queries over aliased tables (`courses as c`), whose
 * builder type the helper's signature does not name; the SQL is the same.
 */
export function pageOfAliased<O>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any aliased select
  query: SelectQueryBuilder<any, any, O>,
  page: Pick<StaffPageQuery, "page" | "pageSize" | "sort" | "dir">,
  sorting: Sorting,
): Promise<Paged<O>> {
  return pageOf(query as unknown as SelectQueryBuilder<DB, keyof DB, O>, page, sorting);
}
