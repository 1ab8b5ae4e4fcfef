/**
 * Seeds the demo catalogue (api/db/catalogue-data.ts) in one transaction: teachers, courses with
 * chapters and lessons, live sessions around the seed time, books, stationery with SKUs, banners,
 * activities and public lessons. Runs only on a database without courses.
 */
import type { Transaction } from "kysely";
import { chinaDate } from "../../shared/china-time";
import { sampleVideoKeys, sampleVideos, shippedVideoSeconds } from "../../shared/media";
import {
  activitySeeds,
  bannerSeeds,
  bookSeeds,
  commoditySeeds,
  courseSeeds,
  liveSeeds,
  courseOutline,
  publicItemSeeds,
  teacherSeeds,
} from "../db/catalogue-data";
import { demoLessonClips } from "../db/demo-lesson-clips";
import type { Database } from "../db/database";
import type { DB } from "../db/schema";
import { scheduledLiveState } from "../modules/live/states";

const yuan = (value: number) => Math.round(value * 100);
const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** A valid ISBN-13 in the 978-7 (China) range from a publisher prefix and a title number. */
function isbn13(publisher: string, title: number): string {
  const body = `9787${publisher}${String(title).padStart(8 - publisher.length, "0")}`;
  const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

export async function seedCatalogue(database: Database, now: Date = new Date()): Promise<boolean> {
  return database.db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom("courses").select("id").limit(1).executeTakeFirst();
    if (existing) return false;
    await insertCatalogue(trx, now);
    return true;
  });
}

async function insertCatalogue(trx: Transaction<DB>, now: Date): Promise<void> {
  const teacherIds: number[] = [];
  for (const [position, t] of teacherSeeds.entries()) {
    const teacher = await trx
      .insertInto("teachers")
      .values({ name: t.name, title: t.title, bio: t.bio, specialty: t.specialty, portrait_char: t.portrait, position })
      .returning("id")
      .executeTakeFirstOrThrow();
    teacherIds.push(teacher.id);
  }
  // The demo teacher account teaches as the first teacher.
  const demoTeacher = await trx.selectFrom("users").select("id").where("phone", "=", "13800138001").executeTakeFirst();
  if (demoTeacher)
    await trx.updateTable("teachers").set({ user_id: demoTeacher.id }).where("id", "=", teacherIds[0]!).execute();

  const courseIds: number[] = [];
  // Every lesson plays its own clip: a title card with its title and model character, then a sample.
  const clips = demoLessonClips();
  let clipTurn = 0;
  for (const [index, c] of courseSeeds.entries()) {
    const topics = courseOutline(c, index);
    // Newer courses first in "newest": spread publication over the last months.
    const publishedAt = new Date(now.getTime() - (courseSeeds.length - index) * 3 * DAY);
    const course = await trx
      .insertInto("courses")
      .values({
        title: c.title,
        subtitle: c.subtitle,
        category: c.category,
        kind: c.kind,
        level: c.level,
        teacher_id: teacherIds[c.teacher]!,
        price_cents: yuan(c.price),
        original_price_cents: yuan(c.original),
        is_public: c.isPublic ?? false,
        cover_char: c.cover,
        summary: c.subtitle,
        introduction: courseIntroduction(c.title, teacherSeeds[c.teacher]!.name, topics),
        outcomes: JSON.stringify(topics.map(([chapter, lessons]) => `${chapter}：${lessons.slice(0, 2).join("、")}`)),
        learners_count: c.learners,
        popularity: c.learners + (c.kind === "live" ? 500 : 0),
        camp_starts_on: c.kind === "camp" ? chinaDate(new Date(now.getTime() - 3 * DAY)) : null,
        published_at: publishedAt,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    courseIds.push(course.id);

    let lessonNumber = 0;
    for (const [chapterIndex, [chapterTitle, lessonTitles]] of topics.entries()) {
      const chapter = await trx
        .insertInto("chapters")
        .values({
          course_id: course.id,
          position: chapterIndex + 1,
          title: `第${"一二三四五六"[chapterIndex]}章 ${chapterTitle}`,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      for (const [lessonIndex, title] of lessonTitles.entries()) {
        lessonNumber++;
        const clip = clips[clipTurn++]!;
        if (clip.lessonTitle !== title) throw new Error(`demo lesson ${clip.slug} is not "${title}"`);
        await trx
          .insertInto("lessons")
          .values({
            course_id: course.id,
            chapter_id: chapter.id,
            position: lessonIndex + 1,
            title,
            summary: `${c.title}第 ${lessonNumber} 课：${title}。`,
            video_key: clip.key,
            duration_seconds: shippedVideoSeconds(clip.key)!,
            // Free courses are open throughout; others let everyone try the first two lessons.
            is_trial: c.price === 0 || lessonNumber <= 2,
            unlock_day: c.kind === "camp" ? lessonNumber : null,
          })
          .execute();
      }
    }
  }

  for (const [index, l] of liveSeeds.entries()) {
    const course = courseSeeds[l.course]!;
    const startsAt = new Date(now.getTime() + l.startsInHours * HOUR);
    const endsAt = new Date(startsAt.getTime() + l.minutes * 60_000);
    const state = l.cancelled ? "cancelled" : scheduledLiveState(startsAt, endsAt, now);
    await trx
      .insertInto("live_sessions")
      .values({
        course_id: courseIds[l.course]!,
        teacher_id: teacherIds[course.teacher]!,
        title: l.title,
        summary: `${course.title}的直播课：${l.title}。老师现场示范、当堂答疑。`,
        cover_char: course.cover,
        starts_at: startsAt,
        ends_at: endsAt,
        state,
        stream_key: `live-${index + 1}`,
        recording_video_key: sampleVideoKeys[index % sampleVideoKeys.length]!,
        chapter_marks: JSON.stringify([
          { at: 0, title: "开场与本讲要点" },
          { at: 10, title: "示范书写" },
          { at: 20, title: "答疑与作业" },
        ]),
        // Today's open class is free for everyone; the rest are for the course's learners.
        is_open: index === liveSeeds.length - 7,
      })
      .execute();
  }

  for (const [index, b] of bookSeeds.entries()) {
    await trx
      .insertInto("books")
      .values({
        title: b.title,
        author: b.author,
        publisher: b.publisher,
        isbn: isbn13("5479", 1000 + index * 7),
        tab: b.tab,
        price_cents: yuan(b.price),
        original_price_cents: yuan(b.original),
        stock: b.stock,
        cover_char: b.cover,
        summary: b.summary,
        pages: b.pages,
        published_on: chinaDate(new Date(now.getTime() - (bookSeeds.length - index) * 20 * DAY)),
        created_at: new Date(now.getTime() - (bookSeeds.length - index) * DAY),
      })
      .execute();
  }

  for (const [index, c] of commoditySeeds.entries()) {
    const commodity = await trx
      .insertInto("commodities")
      .values({
        title: c.title,
        category: c.category,
        summary: c.summary,
        description: c.description,
        cover_char: c.cover,
        gallery: JSON.stringify([
          c.cover,
          ...[...c.title].filter((ch) => /\p{Script=Han}/u.test(ch) && ch !== c.cover).slice(0, 3),
        ]),
        sales: c.sales,
        created_at: new Date(now.getTime() - (commoditySeeds.length - index) * DAY),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (const [position, [name, price, original, stock]] of c.skus.entries()) {
      await trx
        .insertInto("commodity_skus")
        .values({
          commodity_id: commodity.id,
          name,
          price_cents: yuan(price),
          original_price_cents: yuan(original),
          stock,
          position,
        })
        .execute();
    }
  }

  for (const [position, b] of bannerSeeds.entries()) {
    const link = b.link === "/course/1" ? `/course/${courseIds[0]}` : b.link;
    await trx
      .insertInto("banners")
      .values({ ...b, link, position })
      .execute();
  }

  for (const a of activitySeeds) {
    const startsAt = new Date(now.getTime() + a.startsIn * DAY);
    const courseId = a.course === undefined ? null : courseIds[a.course]!;
    const homeworkLesson =
      a.homework && courseId !== null
        ? await trx
            .selectFrom("lessons")
            .select("id")
            .where("course_id", "=", courseId)
            .orderBy("position")
            .orderBy("id")
            .limit(1)
            .executeTakeFirst()
        : undefined;
    await trx
      .insertInto("activities")
      .values({
        token: a.token,
        kind: a.kind,
        title: a.title,
        summary: a.summary,
        body: JSON.stringify(a.body),
        cover_char: a.cover,
        starts_at: startsAt,
        ends_at: new Date(startsAt.getTime() + a.lastsDays * DAY),
        course_id: courseId,
        capacity: a.capacity ?? null,
        homework_lesson_id: homeworkLesson?.id ?? null,
      })
      .execute();
  }

  for (const [position, p] of publicItemSeeds.entries()) {
    const key = sampleVideoKeys[position % sampleVideoKeys.length]!;
    await trx
      .insertInto("public_course_items")
      .values({
        title: p.title,
        summary: p.summary,
        teacher_id: teacherIds[p.teacher]!,
        video_key: key,
        duration_seconds: sampleVideos[key].durationSeconds,
        cover_char: p.cover,
        position,
        published_at: new Date(now.getTime() - (publicItemSeeds.length - position) * 2 * DAY),
      })
      .execute();
  }
}

function courseIntroduction(title: string, teacher: string, topics: Array<[string, string[]]>): string {
  const chapters = topics.map(([chapter]) => chapter).join("、");
  return [
    `《${title}》由${teacher}老师主讲，分为${chapters}${topics.length}个部分。`,
    "每节课先看老师示范，再跟着视频慢速临写，最后对照范字自查。课程配有作业，老师会批改并给出修改建议。",
    "建议每天练习二十到三十分钟，准备好笔、纸和一本对应的字帖，跟着课程进度一步一步来。",
  ].join("\n\n");
}
