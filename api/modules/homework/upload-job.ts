/**
 * The homework upload sweep, hourly on one node (the job registry claims each period): photos
 * uploaded but never handed in are deleted once they are HOMEWORK_UNSUBMITTED_PHOTO_HOURS old, so
 * a closed dialog does not keep a learner's pictures (and their bytes) for ever. Deletes go in
 * small batches so that no statement holds many rows or runs long beside the learners' uploads.
 */
import { HOMEWORK_UNSUBMITTED_PHOTO_HOURS } from "../../../shared/contracts/homework";
import type { ApiContext } from "../../context";
import type { JobDefinition } from "../../jobs/registry";

export const UPLOAD_JOB_EVERY_MS = 3_600_000;
const BATCH = 200;
/** A run stops after this many batches; the next hour carries on with what is left. */
const MAX_BATCHES = 50;

/** Deletes unsubmitted photos older than the limit; answers how many went. */
export async function pruneUnsubmittedPhotos(
  ctx: ApiContext,
  options: { now?: Date; batch?: number } = {},
): Promise<number> {
  const db = ctx.database.db;
  const cutoff = new Date((options.now ?? ctx.now()).getTime() - HOMEWORK_UNSUBMITTED_PHOTO_HOURS * 3_600_000);
  const batch = options.batch ?? BATCH;
  let deleted = 0;
  for (let round = 0; round < MAX_BATCHES; round++) {
    const result = await db
      .deleteFrom("homework_photos")
      .where(
        "id",
        "in",
        db
          .selectFrom("homework_photos")
          .select("id")
          .where("attempt_id", "is", null)
          .where("created_at", "<", cutoff)
          .orderBy("created_at")
          .limit(batch),
      )
      // Checked again on the row itself: a photo handed in at this instant stays.
      .where("attempt_id", "is", null)
      .where("created_at", "<", cutoff)
      .executeTakeFirst();
    const n = Number(result.numDeletedRows);
    deleted += n;
    if (n < batch) break;
  }
  return deleted;
}

export const homeworkUploadJob: JobDefinition = {
  name: "homework-uploads",
  everyMs: UPLOAD_JOB_EVERY_MS,
  async run(ctx) {
    const deleted = await pruneUnsubmittedPhotos(ctx);
    if (deleted) ctx.logger.info({ deleted }, "unsubmitted homework photos deleted");
    return { deleted };
  },
};
