/**
 * Who reviews what: operators every course, a teacher the courses they are assigned to
 * (course_teachers), anyone else nothing. Staff endpoints answer 404 to everyone else, so they
 * do not even learn that an attempt exists.
 */
import type { User } from "../../db/schema";
import { notFound } from "../../http";
import type { Db } from "./views";

export interface StaffScope {
  userId: number;
  operator: boolean;
  /** The courses a teacher reviews (every course for operators: not listed). */
  courseIds: number[];
}

export async function staffScope(db: Db, user: Pick<User, "id" | "role">): Promise<StaffScope | null> {
  if (user.role === "operator") return { userId: user.id, operator: true, courseIds: [] };
  if (user.role !== "teacher") return null;
  const rows = await db.selectFrom("course_teachers").select("course_id").where("user_id", "=", user.id).execute();
  return { userId: user.id, operator: false, courseIds: rows.map((r) => r.course_id) };
}

/** The scope, or 404 for learners. */
export async function requireStaff(db: Db, user: Pick<User, "id" | "role">): Promise<StaffScope> {
  const scope = await staffScope(db, user);
  if (!scope) throw notFound();
  return scope;
}

export const covers = (scope: StaffScope, courseId: number) => scope.operator || scope.courseIds.includes(courseId);

/** Whether the user teaches (or, as an operator, oversees) the course. */
export async function teachesCourse(db: Db, user: Pick<User, "id" | "role">, courseId: number): Promise<boolean> {
  const scope = await staffScope(db, user);
  return scope !== null && covers(scope, courseId);
}
