/**
 * Demo commerce data: coupon templates, group-buy campaigns, and the exchange mall's items —
 * stationery, books, a coupon (with its own template) and a course, priced in coins or bishan,
 * with stock and per-learner limits. Each part runs only when it has none yet; they point at the
 * demo catalogue, so this runs after the catalogue seed.
 */
import type { Database } from "../db/database";
import type { ExchangeItemsTable } from "../db/schema";
import type { Insertable } from "kysely";
import { seedCoupons } from "../modules/coupons/seed";
import { seedGroupCampaigns } from "../modules/groups/seed";

export async function seedCommerce(database: Database): Promise<boolean> {
  // The claim centre's coupon templates and the group-buy campaigns (each only when there are none).
  await seedCoupons(database);
  await seedGroupCampaigns(database);
  const any = await database.db.selectFrom("exchange_items").select("id").limit(1).executeTakeFirst();
  if (any) return false;
  const db = database.db;
  const commodities = await db
    .selectFrom("commodities")
    .select(["id", "title", "summary", "cover_char"])
    .where("status", "=", "published")
    .orderBy("id")
    .limit(4)
    .execute();
  const books = await db
    .selectFrom("books")
    .select(["id", "title", "summary", "cover_char"])
    .where("status", "=", "published")
    .orderBy("id")
    .limit(2)
    .execute();
  const course = await db
    .selectFrom("courses")
    .select(["id", "title", "subtitle", "cover_char"])
    .where("price_cents", ">", 0)
    .where("kind", "=", "recorded")
    .orderBy("price_cents")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();

  return db.transaction().execute(async (trx) => {
    const template = await trx
      .insertInto("coupon_templates")
      .values({
        title: "兑换专享 满 99 减 20",
        kind: "amount",
        amount_off_cents: 2000,
        threshold_cents: 9900,
        scope: "all",
        valid_days: 30,
        per_user_limit: 5,
        claimable: false,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const items: Insertable<ExchangeItemsTable>[] = [];
    let position = 0;
    const prices = [300, 500, 800, 1200];
    commodities.forEach((c, i) => {
      items.push({
        title: c.title,
        summary: c.summary,
        kind: "commodity",
        ref_id: c.id,
        currency: "coin",
        price: prices[i] ?? 500,
        stock: [50, 30, 20, 10][i] ?? 20,
        per_user_limit: i < 2 ? 2 : 1,
        cover_char: c.cover_char,
        position: position++,
      });
    });
    items.push({
      title: "兑换专享优惠券 满 99 减 20",
      summary: "全站课程、书籍和文房用品通用，满 99 元减 20 元，兑换后 30 天内有效。",
      kind: "coupon",
      ref_id: template.id,
      currency: "coin",
      price: 200,
      stock: 500,
      per_user_limit: 3,
      cover_char: "券",
      position: position++,
    });
    books.forEach((b, i) => {
      items.push({
        title: b.title,
        summary: b.summary,
        kind: "book",
        ref_id: b.id,
        currency: "bishan",
        price: [5, 8][i] ?? 6,
        stock: [40, 15][i] ?? 20,
        per_user_limit: 1,
        cover_char: b.cover_char,
        position: position++,
      });
    });
    if (course) {
      items.push({
        title: course.title,
        summary: course.subtitle || "兑换后即可在“我的课程”中学习全部课时。",
        kind: "course",
        ref_id: course.id,
        currency: "bishan",
        price: 20,
        stock: 100,
        per_user_limit: 1,
        cover_char: course.cover_char,
        position: position++,
      });
    }
    await trx.insertInto("exchange_items").values(items).execute();
    return true;
  });
}
