/**
 * The course catalogue (/api/courses): the list with its filters, a course's public detail with
 * its outline, the signed-in learner's state on one course, free enrolment and "my courses".
 * Summary shapes come from ./catalogue.
 */
import { z } from "zod";
import { type CourseCategoryKey, courseCategories } from "../catalogue";
import {
  bookSummarySchema,
  commoditySummarySchema,
  courseSummarySchema,
  liveSummarySchema,
  teacherSummarySchema,
} from "./catalogue";
import { groupCampaignSchema } from "./groups";
import { formatMonthDay } from "../format";

export const courseSorts = {
  popular: "最受欢迎",
  newest: "最新上架",
  price_asc: "价格从低到高",
  price_desc: "价格从高到低",
} as const;
export type CourseSortKey = keyof typeof courseSorts;

export const coursePriceFilters = { free: "免费", paid: "付费" } as const;
export type CoursePriceFilter = keyof typeof coursePriceFilters;

export const COURSE_PAGE_SIZE = 12;
export const COURSE_PAGE_SIZE_MAX = 48;
/** Far beyond any real catalogue; keeps the offset a small number. */
export const COURSE_PAGE_MAX = 1000;

const categoryKeys = courseCategories.map((c) => c.key) as [CourseCategoryKey, ...CourseCategoryKey[]];

const strictError = (issue: { code?: string; keys?: string[] }) =>
  issue.code === "unrecognized_keys" ? `不支持的查询参数：${(issue.keys ?? []).join("、")}` : undefined;

/** A query-string number: digits only, from 1 to `max`. */
function positiveInt(label: string, max: number) {
  return z
    .string({ error: `${label}必须是正整数` })
    .regex(/^[1-9]\d{0,5}$/, `${label}必须是正整数`)
    .transform(Number)
    .refine((n) => n <= max, `${label}不能大于 ${max}`);
}

/**
 * GET /api/courses. Every value is optional; sort defaults to popular (ties by id, ascending,
 * in every order), page to 1 and pageSize to 12.
 */
export const courseListQuerySchema = z.strictObject(
  {
    category: z.enum(categoryKeys, { error: "课程分类不存在" }).optional(),
    kind: z.enum(["recorded", "live", "camp"], { error: "课程类型只能是录播课、直播课或训练营" }).optional(),
    level: z.enum(["beginner", "intermediate", "advanced"], { error: "课程难度只能是入门、进阶或提高" }).optional(),
    price: z.enum(["free", "paid"], { error: "价格筛选只能是免费或付费" }).optional(),
    sort: z.enum(["popular", "newest", "price_asc", "price_desc"], { error: "排序方式不正确" }).default("popular"),
    page: positiveInt("页码", COURSE_PAGE_MAX).default(1),
    pageSize: positiveInt("每页数量", COURSE_PAGE_SIZE_MAX).default(COURSE_PAGE_SIZE),
  },
  { error: strictError },
);
export type CourseListQuery = z.infer<typeof courseListQuerySchema>;

export const courseListSchema = z.object({
  items: z.array(courseSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
});
export type CourseList = z.infer<typeof courseListSchema>;

/** Why a lesson is closed to a viewer. */
export const lockReasons = {
  purchase: "购买课程后学习",
  enrol: "报名后学习",
  camp: "按训练营日程解锁",
} as const;
export type LockReason = keyof typeof lockReasons;
const lockReasonSchema = z.enum(["purchase", "enrol", "camp"]);

/** What every outline's lesson says; the course page and the player's list each add their own. */
export const outlineLessonBaseSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  durationSeconds: z.number().int(),
  isTrial: z.boolean(),
  locked: z.boolean(),
});

/** A chapter of an outline, its lessons in the shape the page at hand needs. */
export const outlineChapterOf = <L extends z.ZodType>(lesson: L) =>
  z.object({
    id: z.number().int(),
    title: z.string(),
    lessons: z.array(lesson),
  });

/** `locked` as an anonymous visitor sees it: every lesson but the trial ones is locked. */
export const outlineLessonSchema = outlineLessonBaseSchema.extend({
  lockReason: lockReasonSchema.nullable(),
  /** Camp lessons: the day of the camp and its date in China ('YYYY-MM-DD'); null otherwise. */
  unlockDay: z.number().int().nullable(),
  unlockDate: z.string().nullable(),
});
export type OutlineLesson = z.infer<typeof outlineLessonSchema>;

export const outlineChapterSchema = outlineChapterOf(outlineLessonSchema);
export type OutlineChapter = z.infer<typeof outlineChapterSchema>;

/** GET /api/courses/:id — the same for every visitor, so caches may keep it. */
export const courseDetailSchema = courseSummarySchema.extend({
  summary: z.string(),
  introduction: z.string(),
  outcomes: z.array(z.string()),
  teacher: teacherSummarySchema,
  /** Camps: the first day ('YYYY-MM-DD', China time). */
  campStartsOn: z.string().nullable(),
  publishedAt: z.string(),
  chapters: z.array(outlineChapterSchema),
  firstLessonId: z.number().int().nullable(),
  firstTrialLessonId: z.number().int().nullable(),
  relatedBooks: z.array(bookSummarySchema),
  relatedCommodities: z.array(commoditySummarySchema),
  liveSessions: z.array(liveSummarySchema),
  /** The running group-buy campaign (拼团), or null. */
  groupBuy: groupCampaignSchema.nullable(),
});
export type CourseDetail = z.infer<typeof courseDetailSchema>;

/** GET /api/courses/:id/me — what only the signed-in learner sees on the course page. */
export const courseViewerSchema = z.object({
  enrolled: z.boolean(),
  enrolledAt: z.string().nullable(),
  /** Where 继续学习 goes: the last lesson learned, else the first one. */
  continueLessonId: z.number().int().nullable(),
  lastLearnedAt: z.string().nullable(),
  lessonsCompleted: z.number().int(),
  lessons: z.array(
    z.object({
      id: z.number().int(),
      locked: z.boolean(),
      lockReason: lockReasonSchema.nullable(),
      progressPercent: z.number().int(),
      completed: z.boolean(),
    }),
  ),
  /** The viewer teaches this course: 立即购买 is not offered to them. */
  teaches: z.boolean(),
});
export type CourseViewer = z.infer<typeof courseViewerSchema>;

/** POST /api/courses/:id/enrol: an empty body (or none). */
export const enrolRequestSchema = z.strictObject(
  {},
  { error: (issue) => strictError(issue)?.replace("查询参数", "字段") },
);

/** The answer to an enrolment. */
export const enrolResultSchema = z.object({
  enrolled: z.literal(true),
  /** False when the learner was already enrolled: nothing changed. */
  newlyEnrolled: z.boolean(),
  learnersCount: z.number().int(),
  continueLessonId: z.number().int().nullable(),
});
export type EnrolResult = z.infer<typeof enrolResultSchema>;

export const myCourseSchema = z.object({
  course: courseSummarySchema,
  enrolledAt: z.string(),
  lessonsTotal: z.number().int(),
  lessonsCompleted: z.number().int(),
  /** Completed lessons out of all, 0–100, rounded down (100 only when every lesson is done). */
  percent: z.number().int(),
  lastLesson: z.object({ id: z.number().int(), title: z.string() }).nullable(),
  lastLearnedAt: z.string().nullable(),
  continueLessonId: z.number().int().nullable(),
});
export type MyCourse = z.infer<typeof myCourseSchema>;

/** GET /api/courses/mine: most recently learned first, then most recently enrolled. */
export const myCoursesSchema = z.object({
  items: z.array(myCourseSchema),
  total: z.number().int(),
});
export type MyCourses = z.infer<typeof myCoursesSchema>;

/** "第 4 天解锁 · 11月25日", "购买课程后学习"… */
export function lockText(lesson: {
  lockReason: LockReason | null;
  unlockDay: number | null;
  unlockDate: string | null;
}) {
  if (!lesson.lockReason) return "";
  if (lesson.lockReason !== "camp") return lockReasons[lesson.lockReason];
  if (!lesson.unlockDate) return "开营后解锁";
  return `训练营第 ${lesson.unlockDay ?? 1} 天解锁（${formatMonthDay(lesson.unlockDate)}）`;
}
