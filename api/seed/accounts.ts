/**
 * Demo accounts for local use (credentials in the README): a learner, a teacher and an
 * operator. Created by `npm run db:seed`, and on the first embedded start.
 */
import type { Database } from "../db/database";
import { hashPassword } from "../modules/auth/passwords";

const demoAccounts = [
  {
    role: "learner",
    nickname: "墨池学员",
    phone: "13800138000",
    email: "learner@mochi.local",
    password: "Mochi-learner-2026",
  },
  {
    role: "teacher",
    nickname: "林老师",
    phone: "13800138001",
    email: "teacher@mochi.local",
    password: "Mochi-teacher-2026",
  },
  {
    role: "operator",
    nickname: "运营小墨",
    phone: "13800138002",
    email: "operator@mochi.local",
    password: "Mochi-operator-2026",
  },
] as const;

export async function seed(database: Database): Promise<number> {
  let created = 0;
  for (const account of demoAccounts) {
    const row = await database.db
      .insertInto("users")
      .values({
        phone: account.phone,
        email: account.email,
        nickname: account.nickname,
        role: account.role,
        password_hash: await hashPassword(account.password),
        info_completed_at: new Date(),
      })
      .onConflict((oc) => oc.column("phone").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (row) created++;
  }
  return created;
}

export async function seedIfEmpty(database: Database): Promise<boolean> {
  const any = await database.db.selectFrom("users").select("id").limit(1).executeTakeFirst();
  if (any) return false;
  await seed(database);
  return true;
}
