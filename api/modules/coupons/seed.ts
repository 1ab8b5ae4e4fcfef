/** Demo coupon templates for the claim centre (only when there are no claimable ones yet). */
import type { Database } from "../../db/database";

export async function seedCoupons(database: Database): Promise<boolean> {
  const any = await database.db
    .selectFrom("coupon_templates")
    .select("id")
    .where("claimable", "=", true)
    .limit(1)
    .executeTakeFirst();
  if (any) return false;
  await database.db
    .insertInto("coupon_templates")
    .values([
      {
        title: "新人专享券",
        kind: "amount",
        amount_off_cents: 1000,
        threshold_cents: 0,
        scope: "all",
        valid_days: 30,
        per_user_limit: 1,
      },
      {
        title: "课程满减券",
        kind: "amount",
        amount_off_cents: 3000,
        threshold_cents: 19900,
        scope: "course",
        valid_days: 15,
        total_quantity: 2000,
        per_user_limit: 2,
      },
      {
        title: "书香九折券",
        kind: "percent",
        percent_off: 10,
        threshold_cents: 5000,
        scope: "book",
        valid_days: 30,
        per_user_limit: 1,
      },
      {
        title: "文房满减券",
        kind: "amount",
        amount_off_cents: 1500,
        threshold_cents: 10000,
        scope: "commodity",
        valid_days: 30,
        total_quantity: 500,
        per_user_limit: 1,
      },
    ])
    .execute();
  return true;
}
