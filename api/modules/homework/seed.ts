/**
 * Demo homework, seeded with the demo catalogue (never in pro without DEMO_DATA): teacher
 * accounts tied to courses, tasks on the first lessons of a few courses, the demo learner's work
 * in every state (reviewed with a drawing, returned and handed in again, waiting, on the wall), a
 * queue of waiting work for the demo teacher and a wall of excellent work by other learners.
 * The photos are practice sheets drawn in the brush font; the few distinct sheets are made once
 * and kept in the system's temporary folder, so seeding again (tests do) costs no rasterising.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadSharp } from "../../providers/images";
import type { Drawing, Script } from "../../../shared/contracts/homework";
import type { Database } from "../../db/database";
import type { HomeworkLevel } from "../../db/schema";
import { enrolLearner } from "../enrolments/enrolments";
import { newPublicId } from "./homework";
import { practiceSheet } from "./paper";
import { newPhotoId, THUMB_LONG_SIDE } from "./photos";

const SCRIPT_OF: Record<string, Script> = {
  kaishu: "kai",
  xingshu: "xing",
  lishu: "li",
  zhuanshu: "zhuan",
  caoshu: "cao",
  yingbi: "yingbi",
};

const CHARACTER_SETS = ["永和九年", "天地玄黄", "上善若水", "春风化雨"] as const;

const DEMO_TEACHERS = [
  { phone: "13800138003", nickname: "周老师", teacher: 1 },
  { phone: "13800138004", nickname: "陈老师", teacher: 2 },
] as const;

const LEARNER_NAMES = [
  "临池小舟",
  "墨香",
  "竹影",
  "听雨",
  "青衫",
  "砚田",
  "归云",
  "松间",
  "半山",
  "素笺",
  "晚晴",
  "一苇",
  "鹤鸣",
  "清溪",
  "南山",
  "知白",
  "守拙",
  "书痴",
  "墨耕",
  "浅草",
  "疏影",
  "晴川",
  "石泉",
  "兰亭客",
  "怀素迷",
  "小楷",
  "写字的猫",
  "北窗",
];

interface Sheet {
  display: Buffer;
  thumb: Buffer;
  width: number;
  height: number;
  thumbWidth: number;
  thumbHeight: number;
}

const sheets = new Map<string, Sheet>();
const CACHE_DIR = path.join(tmpdir(), "mochi-homework-demo-v1");

async function sheetFor(characters: string, variant: number): Promise<Sheet> {
  const sharp = await loadSharp();
  const key = `${characters}-${variant}`;
  const known = sheets.get(key);
  if (known) return known;
  const file = path.join(CACHE_DIR, `${Buffer.from(key).toString("hex")}.jpg`);
  let display: Buffer;
  try {
    display = readFileSync(file);
  } catch {
    display = await practiceSheet(characters, variant + 1, 1280);
    try {
      mkdirSync(CACHE_DIR, { recursive: true });
      writeFileSync(file, display);
    } catch {
      // A read-only temporary folder only costs the next seed the rasterising again.
    }
  }
  const meta = await sharp(display).metadata();
  const thumb = await sharp(display)
    .resize(THUMB_LONG_SIDE, THUMB_LONG_SIDE, { fit: "inside" })
    .jpeg({ quality: 78, progressive: true, mozjpeg: true })
    .toBuffer({ resolveWithObject: true });
  const sheet = {
    display,
    thumb: thumb.data,
    width: meta.width!,
    height: meta.height!,
    thumbWidth: thumb.info.width,
    thumbHeight: thumb.info.height,
  };
  sheets.set(key, sheet);
  return sheet;
}

const COMMENTS: Record<HomeworkLevel, string> = {
  excellent: "笔画沉着，结构端正，通篇气息贯通。起笔藏锋到位，可以继续临下一段。",
  good: "整体不错，横画略平，可稍向右上取势；“九”字的弯钩再饱满一些。",
  fair: "字形基本到位，但笔画粗细变化不够，请放慢速度，注意提按。",
  weak: "请先对照范字把笔顺写对，再注意每个字在格中的位置。",
};

const DRAWING: Drawing = {
  photo: 0,
  marks: [
    {
      kind: "circle",
      color: "#c0392b",
      width: 0.006,
      points: [
        [0.12, 0.1, 0.5],
        [0.46, 0.46, 0.5],
      ],
    },
    {
      kind: "tick",
      color: "#c0392b",
      width: 0.008,
      points: [
        [0.6, 0.62, 0.5],
        [0.66, 0.7, 0.6],
        [0.8, 0.52, 0.5],
      ],
    },
    {
      kind: "pen",
      color: "#c0392b",
      width: 0.004,
      points: [
        [0.55, 0.2, 0.3],
        [0.62, 0.18, 0.5],
        [0.72, 0.17, 0.6],
        [0.8, 0.2, 0.4],
      ],
    },
  ],
  grids: [{ kind: "mi", x: 0.28, y: 0.28, size: 0.36, character: "永" }],
};

export async function seedHomework(database: Database, now: Date = new Date()): Promise<boolean> {
  const db = database.db;
  const any = await db.selectFrom("homework_tasks").select("id").limit(1).executeTakeFirst();
  if (any) return false;
  const profiles = await db.selectFrom("teachers").select(["id", "user_id"]).orderBy("position").execute();
  if (!profiles.length) return false;
  // Three courses of the demo teacher's profile and one each of the next two teachers.
  const courses = await db
    .selectFrom("courses")
    .select(["id", "category", "teacher_id"])
    .where("status", "=", "published")
    .orderBy("id")
    .execute();
  const picked = [
    ...courses.filter((c) => c.teacher_id === profiles[0]!.id).slice(0, 3),
    ...DEMO_TEACHERS.flatMap((t) => courses.filter((c) => c.teacher_id === profiles[t.teacher]?.id).slice(0, 1)),
  ];
  if (!picked.length) return false;
  const lessons = await db
    .selectFrom("lessons")
    .select(["id", "course_id", "title", "position"])
    .where(
      "course_id",
      "in",
      picked.map((c) => c.id),
    )
    .orderBy("course_id")
    .orderBy("position")
    .execute();

  // Sheets are made before the transaction: it holds the only connection on PGlite.
  const sheetList = await Promise.all(CHARACTER_SETS.flatMap((chars) => [0, 1].map((v) => sheetFor(chars, v))));
  const sheetOf = (set: number, variant: number) => sheetList[(set % CHARACTER_SETS.length) * 2 + (variant % 2)]!;

  return db.transaction().execute(async (trx) => {
    const teacherIds: number[] = [];
    for (const t of DEMO_TEACHERS) {
      const profile = profiles[t.teacher];
      const row = await trx
        .insertInto("users")
        .values({ phone: t.phone, nickname: t.nickname, role: "teacher", info_completed_at: now })
        .onConflict((oc) => oc.column("phone").doNothing())
        .returning("id")
        .executeTakeFirst();
      const id =
        row?.id ??
        (await trx.selectFrom("users").select("id").where("phone", "=", t.phone).executeTakeFirstOrThrow()).id;
      teacherIds.push(id);
      if (profile && profile.user_id === null)
        await trx.updateTable("teachers").set({ user_id: id }).where("id", "=", profile.id).execute();
    }
    // Every account linked to a teacher profile teaches that profile's courses.
    const linked = await trx
      .selectFrom("courses as c")
      .innerJoin("teachers as t", "t.id", "c.teacher_id")
      .select(["c.id as course_id", "t.user_id"])
      .where("t.user_id", "is not", null)
      .execute();
    if (linked.length)
      await trx
        .insertInto("course_teachers")
        .values(linked.map((l) => ({ course_id: l.course_id, user_id: l.user_id! })))
        .onConflict((oc) => oc.doNothing())
        .execute();

    const tasks: Array<{ id: number; course_id: number; set: number; teacher: number | null }> = [];
    let set = 0;
    for (const course of picked) {
      const owner = linked.find((l) => l.course_id === course.id)?.user_id ?? null;
      for (const lesson of lessons.filter((l) => l.course_id === course.id).slice(0, 3)) {
        const characters = CHARACTER_SETS[set % CHARACTER_SETS.length]!;
        const task = await trx
          .insertInto("homework_tasks")
          .values({
            course_id: course.id,
            lesson_id: lesson.id,
            title: `临写“${characters}”`,
            instructions: `对照本课范字临写“${characters}”，每字写两遍，选最满意的一遍拍照上传。请在米字格或田字格纸上书写，拍照时纸面平整、光线均匀。`,
            characters,
            script: SCRIPT_OF[course.category] ?? "kai",
            max_photos: 9,
            created_at: now,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        tasks.push({ id: task.id, course_id: course.id, set, teacher: owner });
        set++;
      }
    }
    // The lessons demo activities set as their 临写作业 get a task too (decision 044).
    const activityLessons = await trx
      .selectFrom("activities as a")
      .innerJoin("lessons as l", "l.id", "a.homework_lesson_id")
      .innerJoin("courses as c", "c.id", "l.course_id")
      .leftJoin("homework_tasks as t", "t.lesson_id", "l.id")
      .select(["l.id as lesson_id", "l.course_id", "c.category"])
      .where("t.id", "is", null)
      .orderBy("l.id")
      .execute();
    for (const lesson of activityLessons) {
      const characters = CHARACTER_SETS[0];
      await trx
        .insertInto("homework_tasks")
        .values({
          course_id: lesson.course_id,
          lesson_id: lesson.lesson_id,
          title: `研习临写“${characters}”`,
          instructions: `对照范字临写“${characters}”，每字写两遍，选最满意的一遍拍照上传。老师会圈点批注、评级并写评语。`,
          characters,
          script: SCRIPT_OF[lesson.category] ?? "kai",
          max_photos: 9,
          created_at: now,
        })
        .onConflict((oc) => oc.column("lesson_id").doNothing())
        .execute();
    }
    if (!tasks.length) return false;

    const learner = await trx.selectFrom("users").select("id").where("phone", "=", "13800138000").executeTakeFirst();
    const mainTeacher = tasks[0]!.teacher ?? teacherIds[0] ?? null;
    const minutes = (n: number) => new Date(now.getTime() - n * 60_000);

    const work = async (
      userId: number,
      task: (typeof tasks)[number],
      attempts: Array<{ state: "waiting" | "reviewed" | "returned"; level?: HomeworkLevel; ago: number }>,
      onWallChoice: boolean,
      variant: number,
    ) => {
      await enrolLearner(trx, userId, task.course_id, "admin", minutes(60 * 24 * 20));
      const last = attempts.at(-1)!;
      const excellent = last.state === "reviewed" && last.level === "excellent";
      const submission = await trx
        .insertInto("homework_submissions")
        .values({
          public_id: newPublicId(),
          share_id: newPublicId(),
          task_id: task.id,
          user_id: userId,
          state: last.state,
          level: last.state === "reviewed" ? (last.level ?? "good") : null,
          attempts: attempts.length,
          show_on_wall: onWallChoice,
          excellent_at: excellent ? minutes(last.ago - 30) : null,
          created_at: minutes(attempts[0]!.ago),
          updated_at: minutes(last.state === "waiting" ? last.ago : last.ago - 30),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      for (const [index, a] of attempts.entries()) {
        const done = a.state !== "waiting";
        const attempt = await trx
          .insertInto("homework_attempts")
          .values({
            public_id: newPublicId(),
            submission_id: submission.id,
            number: index + 1,
            state: a.state,
            note: index === 0 ? "老师好，这是我这周的练习，请多指教。" : "按老师的意见重新写了一遍。",
            submitted_at: minutes(a.ago),
            level: a.state === "reviewed" ? (a.level ?? "good") : null,
            comment: a.state === "reviewed" ? COMMENTS[a.level ?? "good"] : "",
            return_reason: a.state === "returned" ? "照片太暗，看不清笔画；请在光线充足处平拍后重新提交。" : null,
            drawings: JSON.stringify(a.state === "reviewed" && userId === learner?.id ? [DRAWING] : []),
            reviewed_by: done ? mainTeacher : null,
            reviewed_at: done ? minutes(a.ago - 30) : null,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        // The demo learner's reviewed work has two sheets, to page through in the review viewer.
        const sheets = userId === learner?.id && a.state === "reviewed" ? 2 : 1;
        for (let position = 0; position < sheets; position++) {
          const sheet = sheetOf(task.set, variant + index + position);
          await trx
            .insertInto("homework_photos")
            .values({
              id: newPhotoId(),
              user_id: userId,
              task_id: task.id,
              attempt_id: attempt.id,
              position,
              width: sheet.width,
              height: sheet.height,
              thumb_width: sheet.thumbWidth,
              thumb_height: sheet.thumbHeight,
              display_bytes: sheet.display,
              thumb_bytes: sheet.thumb,
              created_at: minutes(a.ago),
            })
            .execute();
        }
      }
    };

    const demoTasks = tasks.filter((t) => t.teacher === mainTeacher);
    if (learner && demoTasks.length >= 5) {
      await work(learner.id, demoTasks[0]!, [{ state: "reviewed", level: "good", ago: 60 * 50 }], false, 0);
      await work(
        learner.id,
        demoTasks[1]!,
        [
          { state: "returned", ago: 60 * 30 },
          { state: "waiting", ago: 90 },
        ],
        true,
        1,
      );
      await work(learner.id, demoTasks[2]!, [{ state: "waiting", ago: 20 }], false, 0);
      await work(learner.id, demoTasks[3]!, [{ state: "reviewed", level: "excellent", ago: 60 * 70 }], true, 1);
      await work(learner.id, demoTasks[4]!, [{ state: "returned", ago: 60 * 8 }], false, 0);
    }

    // Other learners: a wall of excellent work, and waiting work in every teacher's queue.
    for (const [i, name] of LEARNER_NAMES.entries()) {
      const user = await trx
        .insertInto("users")
        .values({ phone: `1390000${String(1000 + i)}`, nickname: name, role: "learner", info_completed_at: now })
        .onConflict((oc) => oc.column("phone").doNothing())
        .returning("id")
        .executeTakeFirst();
      if (!user) continue;
      await work(
        user.id,
        tasks[i % tasks.length]!,
        [{ state: "reviewed", level: "excellent", ago: 60 * (6 + i * 7) }],
        true,
        i,
      );
      if (i < 10)
        await work(user.id, tasks[(i + 1) % tasks.length]!, [{ state: "waiting", ago: 15 + i * 37 }], false, i + 1);
    }
    return true;
  });
}
