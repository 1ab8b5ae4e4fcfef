/**
 * Free trial-class sign-ups (/experience). One sign-up per phone number and course category:
 * the unique key decides, so two simultaneous submissions cannot both get through.
 */
import { courseCategoryName } from "../../../shared/catalogue";
import {
  TRIAL_DUPLICATE_MESSAGE,
  type TrialPrefill,
  type TrialSignup,
  type TrialSignupResult,
  maskPhone,
  trialPrefillSchema,
} from "../../../shared/contracts/activities";
import type { Database } from "../../db/database";
import type { User } from "../../db/schema";
import { ApiError } from "../../http";

/** Nicknames the site made up at registration ("墨友1234") are not names to call someone by. */
const GENERATED_NICKNAME = /^墨友\d{4}$/;

export async function signUpForTrial(
  database: Database,
  input: TrialSignup,
  userId: number | null,
  now: Date,
): Promise<TrialSignupResult> {
  const row = await database.db
    .insertInto("trial_signups")
    .values({
      user_id: userId,
      name: input.name,
      phone: input.phone,
      category: input.category,
      grade: input.grade,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(["phone", "category"]).doNothing())
    .returning(["id", "created_at"])
    .executeTakeFirst();
  if (!row) throw new ApiError(409, "already_signed_up", TRIAL_DUPLICATE_MESSAGE);
  return {
    id: row.id,
    name: input.name,
    category: input.category,
    categoryName: courseCategoryName(input.category) ?? input.category,
    maskedPhone: maskPhone(input.phone),
    createdAt: new Date(row.created_at).toISOString(),
  };
}

/** What the form can fill in for a signed-in learner: the name they used before, their phone. */
export async function trialPrefill(database: Database, user: User): Promise<TrialPrefill> {
  let earlier = database.db
    .selectFrom("trial_signups")
    .select(["name", "category", "created_at"])
    .where((eb) =>
      user.phone ? eb.or([eb("user_id", "=", user.id), eb("phone", "=", user.phone)]) : eb("user_id", "=", user.id),
    );
  earlier = earlier.orderBy("created_at", "desc").orderBy("id", "desc");
  const rows = await earlier.execute();
  const nickname = user.nickname && !GENERATED_NICKNAME.test(user.nickname) ? user.nickname.slice(0, 20) : null;
  return trialPrefillSchema.parse({
    name: rows[0]?.name ?? nickname,
    phone: user.phone,
    signedUp: [...new Set(rows.map((r) => r.category))],
  });
}
