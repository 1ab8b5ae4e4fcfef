/**
 * The photo of a diary entry: the same checks and re-encoding as homework photos (magic bytes,
 * pixel-flood guard, EXIF orientation applied and all metadata dropped), kept in the database,
 * shown to its owner only. A new photo replaces the entry's earlier one.
 */
import type { HomeworkPhoto } from "../../../shared/contracts/homework";
import type { ApiContext } from "../../context";
import { ApiError } from "../../http";
import { newPhotoId, processPhoto } from "../homework/photos";
import { addToDiary, diaryPhotoUrl, diaryThumbUrl, writeRefusal } from "./diary";

export async function uploadDiaryPhoto(
  ctx: ApiContext,
  userId: number,
  date: string,
  upload: Buffer,
): Promise<HomeworkPhoto> {
  const now = ctx.now();
  const db = ctx.database.db;
  const before = await db
    .selectFrom("practice_diary")
    .select(["made_up", "created_at"])
    .where("user_id", "=", userId)
    .where("day", "=", date)
    .executeTakeFirst();
  const early = writeRefusal(date, now, before);
  if (early) throw new ApiError(409, "diary_closed", early);
  const photo = await processPhoto(upload);
  const id = newPhotoId();
  await db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom("practice_diary")
      .select(["made_up", "created_at", "photo_id"])
      .where("user_id", "=", userId)
      .where("day", "=", date)
      .forUpdate()
      .executeTakeFirst();
    const refusal = writeRefusal(date, now, existing);
    if (refusal) throw new ApiError(409, "diary_closed", refusal);
    await trx
      .insertInto("practice_photos")
      .values({
        id,
        user_id: userId,
        width: photo.width,
        height: photo.height,
        thumb_width: photo.thumbWidth,
        thumb_height: photo.thumbHeight,
        display_bytes: photo.display,
        thumb_bytes: photo.thumb,
        created_at: now,
      })
      .execute();
    await addToDiary(trx, userId, date, { source: "diary" }, now);
    await trx
      .updateTable("practice_diary")
      .set({ photo_id: id, updated_at: now })
      .where("user_id", "=", userId)
      .where("day", "=", date)
      .execute();
    if (existing?.photo_id) await trx.deleteFrom("practice_photos").where("id", "=", existing.photo_id).execute();
  });
  return { id, url: diaryPhotoUrl(id), thumbUrl: diaryThumbUrl(id), width: photo.width, height: photo.height };
}
