/**
 * Demo group-buy campaigns (only when there are none yet): one paid recorded course in each of
 * six categories, at about 70 % of the price in whole yuan, 24 hours to fill a group, running for
 * a year from seeding. Most groups need 3 people; one needs 2 and one 5.
 */
import type { Database } from "../../db/database";

const CAMPAIGNS = [
  { category: "kaishu", groupSize: 3 },
  { category: "xingshu", groupSize: 3 },
  { category: "lishu", groupSize: 2 },
  { category: "zhuanshu", groupSize: 3 },
  { category: "caoshu", groupSize: 5 },
  { category: "yingbi", groupSize: 3 },
] as const;
const GROUP_PRICE_SHARE = 0.7;
const VALID_HOURS = 24;
const RUNS_DAYS = 365;

/** About 70 % of the price, in whole yuan (at least 1 yuan). */
export function groupPriceFor(priceCents: number): number {
  return Math.max(1, Math.round((priceCents * GROUP_PRICE_SHARE) / 100)) * 100;
}

export async function seedGroupCampaigns(database: Database, now = new Date()): Promise<boolean> {
  const { db } = database;
  const any = await db.selectFrom("group_campaigns").select("id").limit(1).executeTakeFirst();
  if (any) return false;
  const rows = [];
  for (const { category, groupSize } of CAMPAIGNS) {
    const course = await db
      .selectFrom("courses")
      .select(["id", "price_cents"])
      .where("category", "=", category)
      .where("kind", "=", "recorded")
      .where("status", "=", "published")
      .where("price_cents", ">", 0)
      .orderBy("id")
      .limit(1)
      .executeTakeFirst();
    if (!course) continue;
    rows.push({
      course_id: course.id,
      group_size: groupSize,
      group_price_cents: groupPriceFor(course.price_cents),
      valid_hours: VALID_HOURS,
      starts_at: now,
      ends_at: new Date(now.getTime() + RUNS_DAYS * 86_400_000),
    });
  }
  if (rows.length === 0) return false;
  await db.insertInto("group_campaigns").values(rows).execute();
  return true;
}
