/**
 * Catalogue changes (migration 019, decision 026's addendum of 2026-12-07): a transaction that
 * changed rows of a catalogue table is told once, as `<schema>.<table>`; a statement that changed
 * nothing is not told (the live state job runs five guarded updates every 30 s, which used to empty
 * every node's caches each time), nor a learner's progress report (it writes `users` and
 * `enrolments`, in columns no public page shows), nor a write in another schema of the same
 * database.
 *
 * Each check waits until every notification the writes before it caused has been heard
 * (`notificationsDelivered`).
 */
import { sql } from "kysely";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isOwnChange, watchCatalogue } from "../../api/catalogue-changes";
import type { ApiContext } from "../../api/context";
import { seedCatalogue } from "../../api/seed/catalogue";
import { seedCommerce } from "../../api/seed/commerce";
import { orderJob } from "../../api/jobs/commerce";
import { userForPhone } from "../../api/modules/auth/accounts";
import { enrolLearner } from "../../api/modules/enrolments/enrolments";
import { recordLessonProgress } from "../../api/modules/learning/progress";
import { advanceLiveSessions } from "../../api/modules/live/state-job";
import { loadConfig } from "../../server/config";
import { apiContextFor } from "../../server/services";
import { notificationsDelivered } from "./helpers";
import { type TestDatabase, testDatabase } from "../db";

const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: "test-results/data" });

let handle: TestDatabase;
let ctx: ApiContext;
let schema: string;
const heard: string[] = [];
let unwatch: () => Promise<void>;

beforeAll(async () => {
  handle = await testDatabase();
  ctx = await apiContextFor(config, handle.database, pino({ level: "silent" }));
  await seedCatalogue(handle.database, new Date());
  await seedCommerce(handle.database);
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.database.db);
  schema = rows[0]!.schema;
  unwatch = await watchCatalogue(handle.database, (reason) => heard.push(reason));
});
afterAll(async () => {
  await unwatch();
  await handle.dispose();
});

/** Everything the writes so far caused has been heard: returns it, and starts a new list. */
async function heardSoFar(): Promise<string[]> {
  await notificationsDelivered(handle.database);
  return heard.splice(0);
}

describe("catalogue changes", () => {
  it("are told once per transaction that changed rows, with the schema and the table", async () => {
    await heardSoFar();
    await handle.database.db
      .updateTable("courses")
      .set({ title: sql`title` })
      .execute();
    expect(await heardSoFar()).toEqual([`${schema}.courses`]);

    await handle.database.db.transaction().execute(async (trx) => {
      await trx
        .updateTable("courses")
        .set({ title: sql`title` })
        .execute();
      await trx
        .updateTable("books")
        .set({ title: sql`title` })
        .execute();
      await trx
        .updateTable("courses")
        .set({ title: sql`title` })
        .execute();
    });
    expect((await heardSoFar()).sort()).toEqual([`${schema}.books`, `${schema}.courses`]);
  });

  it("are not told for a statement that changed no row, nor for a transaction rolled back", async () => {
    await heardSoFar();
    await handle.database.db.updateTable("courses").set({ title: "没有这门课" }).where("id", "=", -1).execute();
    await handle.database.db.deleteFrom("banners").where("id", "=", -1).execute();
    await handle.database.db
      .transaction()
      .execute(async (trx) => {
        await trx
          .updateTable("courses")
          .set({ title: sql`title` })
          .execute();
        throw new Error("rolled back");
      })
      .catch(() => {});
    expect(await heardSoFar()).toEqual([]);
  });

  it("are not told when the periodic jobs find nothing to do", async () => {
    // The first runs move what the demo data has due (sessions past their end, …).
    await advanceLiveSessions(ctx);
    await orderJob.run(ctx);
    await heardSoFar();
    expect(await advanceLiveSessions(ctx)).toEqual([]);
    await orderJob.run(ctx);
    await advanceLiveSessions(ctx);
    expect(await heardSoFar()).toEqual([]);
  });

  it("are not told for a learner's progress report; a new enrolment and a nickname are told", async () => {
    const { db } = handle.database;
    const { id: userId } = await userForPhone(ctx, "13700000019").then((r) => r.user);
    const lesson = await db
      .selectFrom("lessons")
      .select(["id", "course_id"])
      .orderBy("id")
      .limit(1)
      .executeTakeFirstOrThrow();
    await heardSoFar();
    await db.transaction().execute((trx) => enrolLearner(trx, userId, lesson.course_id, "admin", new Date()));
    expect(await heardSoFar()).toContain(`${schema}.enrolments`);

    // What the player sends every few seconds: the last lesson and time of the enrolment, the speed.
    const args = { userId, lessonId: lesson.id, courseId: lesson.course_id, durationSeconds: 600, enrolled: true };
    await recordLessonProgress(handle.database, args, { position: 10, watched: 10, speed: 1.5 }, new Date());
    await recordLessonProgress(handle.database, args, { position: 20, watched: 10, speed: 1.25 }, new Date());
    expect(
      (await db.selectFrom("users").select("playback_speed_x100").where("id", "=", userId).executeTakeFirstOrThrow())
        .playback_speed_x100,
    ).toBe(125);
    expect(await heardSoFar()).toEqual([]);

    await db.updateTable("users").set({ nickname: "临池" }).where("id", "=", userId).execute();
    expect(await heardSoFar()).toEqual([`${schema}.users`]);
  });

  it("are told for a TRUNCATE, which has no rows to fire for", async () => {
    await heardSoFar();
    await sql`truncate banners`.execute(handle.database.db);
    expect(await heardSoFar()).toEqual([`${schema}.banners`]);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "in another schema of the same database are not this site's (PostgreSQL)",
    async () => {
      const other = await testDatabase();
      try {
        await heardSoFar();
        await other.database.db.insertInto("banners").values({ title: "别的站点", link: "/", glyph: "墨" }).execute();
        await handle.database.db
          .updateTable("courses")
          .set({ title: sql`title` })
          .execute();
        expect(await heardSoFar()).toEqual([`${schema}.courses`]);
      } finally {
        await other.dispose();
      }
    },
  );

  it("name their schema, or are taken as ours when they name none", () => {
    expect(isOwnChange("public.courses", "public")).toBe(true);
    expect(isOwnChange("test_ab12.courses", "public")).toBe(false);
    expect(isOwnChange("courses", "public")).toBe(true);
    expect(isOwnChange("", "public")).toBe(true);
  });
});
