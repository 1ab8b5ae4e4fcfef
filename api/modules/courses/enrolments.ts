/**
 * Enrolments as the other modules make them: whether a learner has a course, and enrolling one
 * (an order, a gift, a group, the exchange mall) with the course counting one learner more only
 * when the enrolment is new — so a repeated or racing enrolment changes nothing.
 */
import type { Kysely, Transaction } from "kysely";
import type { DB, EnrolmentSource } from "../../db/schema";

export async function ownsCourse(
  db: Pick<Kysely<DB> | Transaction<DB>, "selectFrom">,
  userId: number,
  courseId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom("enrolments")
    .select("course_id")
    .where("user_id", "=", userId)
    .where("course_id", "=", courseId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Enrols the learner; false when they had the course already (nothing changed). */
export async function enrolLearner(
  trx: Transaction<DB>,
  userId: number,
  courseId: number,
  source: EnrolmentSource,
  at: Date,
): Promise<boolean> {
  const enrolled = await trx
    .insertInto("enrolments")
    .values({ user_id: userId, course_id: courseId, source, created_at: at })
    .onConflict((oc) => oc.columns(["user_id", "course_id"]).doNothing())
    .returning("course_id")
    .executeTakeFirst();
  if (!enrolled) return false;
  await trx
    .updateTable("courses")
    .set((eb) => ({ learners_count: eb("learners_count", "+", 1) }))
    .where("id", "=", courseId)
    .execute();
  return true;
}
