/**
 * The one owner of enrolments: whether a learner has a course, enrolling them (free, an order, a
 * gift, a group, the exchange mall) and taking a bought enrolment back when its order is
 * refunded. A course's learner count and its popularity move together, once per learner: only
 * the statement that inserted (or deleted) the enrolment row changes them, in the caller's
 * transaction, so a repeated or racing enrolment changes nothing.
 */
import { sql, type Kysely, type Transaction } from "kysely";
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

/** A new enrolment: the course's learner count after it. */
export interface NewEnrolment {
  learnersCount: number;
}

/**
 * Enrols the learner: the row, and the course counts one learner more and one point of
 * popularity more. Null when they had the course already (nothing changed).
 */
export async function enrolLearner(
  trx: Transaction<DB>,
  userId: number,
  courseId: number,
  source: EnrolmentSource,
  at: Date,
): Promise<NewEnrolment | null> {
  const enrolled = await trx
    .insertInto("enrolments")
    .values({ user_id: userId, course_id: courseId, source, created_at: at })
    .onConflict((oc) => oc.columns(["user_id", "course_id"]).doNothing())
    .returning("course_id")
    .executeTakeFirst();
  if (!enrolled) return null;
  const course = await trx
    .updateTable("courses")
    .set((eb) => ({
      learners_count: eb("learners_count", "+", 1),
      popularity: eb("popularity", "+", 1),
    }))
    .where("id", "=", courseId)
    .returning("learners_count")
    .executeTakeFirstOrThrow();
  return { learnersCount: course.learners_count };
}

/**
 * Takes back the enrolment an order gave (its refund finished): only one from that source, and
 * the count and popularity it added go back with it. False when there was none.
 */
export async function unenrolLearner(
  trx: Transaction<DB>,
  userId: number,
  courseId: number,
  source: EnrolmentSource,
): Promise<boolean> {
  const removed = await trx
    .deleteFrom("enrolments")
    .where("user_id", "=", userId)
    .where("course_id", "=", courseId)
    .where("source", "=", source)
    .returning("course_id")
    .executeTakeFirst();
  if (!removed) return false;
  await trx
    .updateTable("courses")
    .set({
      learners_count: sql<number>`greatest(learners_count - 1, 0)`,
      popularity: sql<number>`greatest(popularity - 1, 0)`,
    })
    .where("id", "=", courseId)
    .execute();
  return true;
}
