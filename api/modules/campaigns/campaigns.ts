/** Group-buy campaigns (the offers groups are started from): the one running on a course, as pages show it. */
import type { Kysely, Transaction } from "kysely";
import type { GroupCampaign } from "../../../shared/contracts/groups";
import type { DB } from "../../db/schema";

/** The course's running campaign (the newest if several overlap), or null. */
export async function runningCampaign(
  db: Kysely<DB> | Transaction<DB>,
  courseId: number,
  now: Date,
): Promise<GroupCampaign | null> {
  const row = await db
    .selectFrom("group_campaigns")
    .select(["id", "group_size", "group_price_cents", "valid_hours"])
    .where("course_id", "=", courseId)
    .where("active", "=", true)
    .where("starts_at", "<=", now)
    .where("ends_at", ">", now)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row
    ? {
        campaignId: row.id,
        groupSize: row.group_size,
        groupPriceCents: row.group_price_cents,
        validHours: row.valid_hours,
      }
    : null;
}
