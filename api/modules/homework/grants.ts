/**
 * Who besides a course's learners may hand in a lesson's homework: the participants of a running
 * activity whose homework lesson it is (decision 044). The module that grants it registers a
 * check at the composition root (server/services.ts), so homework imports none of them.
 */
import type { Db } from "./views";

/** Whether the learner may hand in the homework of `lessonId` by this grant. */
export type HomeworkGrant = (db: Db, userId: number, lessonId: number, now: Date) => Promise<boolean>;

const grants = new Map<string, HomeworkGrant>();

export const homeworkGrants = {
  /** Registers a grant under its owner's name (a second registration replaces the first). */
  register(owner: string, grant: HomeworkGrant) {
    grants.set(owner, grant);
  },
  /** Whether any registered grant lets the learner hand in this lesson's homework. */
  async allow(db: Db, userId: number, lessonId: number, now: Date): Promise<boolean> {
    for (const grant of grants.values()) {
      if (await grant(db, userId, lessonId, now)) return true;
    }
    return false;
  },
};
