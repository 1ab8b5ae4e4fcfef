/**
 * The operator's catalogue (/api/admin/…) and the teacher's own courses (/api/teach/courses…):
 * courses, chapters, lessons with their video and homework task, books and stationery with
 * variants and a stock history. Money is integer cents (分).
 */
import { z } from "zod";
import { courseCategories } from "../catalogue";
import { isShippedVideoKey } from "../media";
import { scriptSchema } from "./homework";
import { pagedOf, staffPageQuery } from "./staff";

const CATEGORY_KEYS = courseCategories.map((c) => c.key) as [string, ...string[]];
export const COURSE_KINDS = ["recorded", "live", "camp"] as const;
export const COURSE_KIND_LABELS: Record<(typeof COURSE_KINDS)[number], string> = {
  recorded: "录播课",
  live: "直播课",
  camp: "训练营",
};
export const COURSE_LEVELS = ["beginner", "intermediate", "advanced"] as const;
export const COURSE_LEVEL_LABELS: Record<(typeof COURSE_LEVELS)[number], string> = {
  beginner: "入门",
  intermediate: "进阶",
  advanced: "高阶",
};
export const PUBLISH_STATES = ["draft", "published", "archived"] as const;
export const PUBLISH_STATE_LABELS: Record<(typeof PUBLISH_STATES)[number], string> = {
  draft: "未上架",
  published: "已上架",
  archived: "已归档",
};

/** Largest price an operator may type (one million yuan), in cents. */
const MAX_PRICE_CENTS = 100_000_000;
/** Most a single stock change may move (either way). */
const MAX_STOCK_DELTA = 100_000;

const text = (max: number, label: string) => z.string().trim().max(max, `${label}不能超过 ${max} 个字`);
const requiredText = (max: number, label: string) => text(max, label).min(1, `请填写${label}`);
const cents = (label: string) =>
  z
    .number(`请填写${label}（元，最多两位小数）`)
    .int(`${label}必须是整数（分）`)
    .min(0, `${label}不能为负`)
    .max(MAX_PRICE_CENTS, `${label}太大了`);
/** One Han character (or any single code point) drawn on the generated cover. */
const coverChar = z
  .string()
  .trim()
  .refine((v) => [...v].length === 1, "封面字只能是一个字");

const priceRule = <T extends { priceCents?: number; originalPriceCents?: number }>(v: T) =>
  v.priceCents === undefined || v.originalPriceCents === undefined || v.originalPriceCents >= v.priceCents;
const PRICE_RULE_MESSAGE = { message: "划线价不能低于售价", path: ["originalPriceCents"] };

// ---- courses -------------------------------------------------------------------------------

const courseFields = z.object({
  title: requiredText(60, "课程名称"),
  subtitle: text(120, "副标题"),
  category: z.enum(CATEGORY_KEYS, "请选择分类"),
  kind: z.enum(COURSE_KINDS, "请选择类型"),
  level: z.enum(COURSE_LEVELS, "请选择难度"),
  teacherId: z.number().int().positive("请选择授课老师"),
  priceCents: cents("售价"),
  originalPriceCents: cents("划线价"),
  coverChar,
  summary: text(300, "简介"),
  introduction: text(5000, "课程介绍"),
});
export const courseCreateSchema = courseFields
  .extend({
    subtitle: courseFields.shape.subtitle.default(""),
    summary: courseFields.shape.summary.default(""),
    introduction: courseFields.shape.introduction.default(""),
  })
  .refine(priceRule, PRICE_RULE_MESSAGE);
export type CourseCreate = z.input<typeof courseCreateSchema>;
export const coursePatchSchema = courseFields
  .partial()
  .refine((v) => Object.keys(v).length > 0, "没有要修改的内容")
  .refine(priceRule, PRICE_RULE_MESSAGE);
export type CoursePatch = z.input<typeof coursePatchSchema>;

const adminCourseRowSchema = z.object({
  id: z.number(),
  title: z.string(),
  category: z.string(),
  kind: z.enum(COURSE_KINDS),
  teacherName: z.string(),
  priceCents: z.number(),
  originalPriceCents: z.number(),
  status: z.enum(PUBLISH_STATES),
  lessons: z.number(),
  updatedAt: z.string(),
});
export type AdminCourseRow = z.infer<typeof adminCourseRowSchema>;

const videoSourceSchema = z.union([
  /** A sample, or (kept unchanged) the demo lesson's own clip with its title card. */
  z.object({ key: z.string().refine(isShippedVideoKey, "请选择示例视频") }),
  z.object({
    /** A path of this site (the page's media policy admits only our own origin). */
    url: z
      .string()
      .trim()
      .max(500, "视频地址太长")
      .regex(/^\/(?!\/)[\w\-./%]+\.m3u8$/i, "视频地址须是本站的 HLS 地址：以 / 开头，以 .m3u8 结尾"),
  }),
]);
export type VideoSource = z.infer<typeof videoSourceSchema>;

export const taskFieldsSchema = z.object({
  title: requiredText(60, "作业标题"),
  instructions: text(1000, "作业要求").default(""),
  characters: text(40, "范字").default(""),
  script: scriptSchema,
  maxPhotos: z.number().int().min(1, "照片数 1–9 张").max(9, "照片数 1–9 张").default(9),
});
export type TaskFields = z.input<typeof taskFieldsSchema>;

const adminTaskSchema = z.object({
  id: z.number(),
  title: z.string(),
  instructions: z.string(),
  characters: z.string(),
  script: scriptSchema,
  maxPhotos: z.number(),
  submissions: z.number(),
});
export type AdminTask = z.infer<typeof adminTaskSchema>;

const adminLessonSchema = z.object({
  id: z.number(),
  chapterId: z.number(),
  position: z.number(),
  title: z.string(),
  /** The lesson's notes (讲义), shown under the video. */
  summary: z.string(),
  videoKey: z.string(),
  videoUrl: z.string().nullable(),
  durationSeconds: z.number(),
  isTrial: z.boolean(),
  task: adminTaskSchema.nullable(),
});
export type AdminLesson = z.infer<typeof adminLessonSchema>;

const adminChapterSchema = z.object({
  id: z.number(),
  position: z.number(),
  title: z.string(),
  lessons: z.array(adminLessonSchema),
});
export type AdminChapter = z.infer<typeof adminChapterSchema>;

export const adminCourseSchema = z.object({
  id: z.number(),
  title: z.string(),
  subtitle: z.string(),
  category: z.string(),
  kind: z.enum(COURSE_KINDS),
  level: z.enum(COURSE_LEVELS),
  teacherId: z.number(),
  teacherName: z.string(),
  priceCents: z.number(),
  originalPriceCents: z.number(),
  coverChar: z.string(),
  coverImage: z.string().nullable(),
  summary: z.string(),
  introduction: z.string(),
  status: z.enum(PUBLISH_STATES),
  updatedAt: z.string(),
  chapters: z.array(adminChapterSchema),
});
export type AdminCourse = z.infer<typeof adminCourseSchema>;

export const chapterInputSchema = z.object({ title: requiredText(60, "章节名称") });

const lessonFields = z.object({
  title: requiredText(60, "课时名称"),
  summary: text(5000, "课时讲义"),
  video: videoSourceSchema,
  durationSeconds: z
    .number()
    .int("时长必须是整数秒")
    .min(1, "请填写时长")
    .max(6 * 3600, "时长不能超过 6 小时"),
  isTrial: z.boolean(),
});
export const lessonInputSchema = lessonFields.extend({
  summary: lessonFields.shape.summary.default(""),
  isTrial: lessonFields.shape.isTrial.default(false),
});
export type LessonInput = z.input<typeof lessonInputSchema>;
/** Only what is named changes (no defaults here: a missing field keeps its value). */
export const lessonPatchSchema = lessonFields.partial().refine((v) => Object.keys(v).length > 0, "没有要修改的内容");

/** The whole order of a course: every chapter, each with every one of its lessons, in order. */
export const courseOrderSchema = z.object({
  chapters: z
    .array(z.object({ id: z.number().int().positive(), lessonIds: z.array(z.number().int().positive()).max(500) }))
    .max(100),
});
export type CourseOrder = z.infer<typeof courseOrderSchema>;

const teacherOptionSchema = z.object({ id: z.number(), name: z.string(), hasAccount: z.boolean() });
export const teacherOptionsSchema = z.object({ teachers: z.array(teacherOptionSchema) });
export type TeacherOption = z.infer<typeof teacherOptionSchema>;

export const encoderStatusSchema = z.object({ available: z.boolean(), message: z.string() });
export type EncoderStatus = z.infer<typeof encoderStatusSchema>;
/** The longest lesson video an operator may upload, seconds (decision 070). */
export const LESSON_VIDEO_MAX_SECONDS = 3 * 3600;

export const NO_ENCODER_MESSAGE =
  "服务器没有安装视频转码器（ffmpeg），暂时不能上传视频文件。请改填视频地址，或由技术人员安装 ffmpeg 后再上传。";

/** A lesson video upload and its background transcoding to HLS (GET/POST /api/admin/lessons/{id}/video). */
const VIDEO_JOB_STATES = ["queued", "running", "done", "failed"] as const;
export const VIDEO_JOB_STATE_LABELS: Record<(typeof VIDEO_JOB_STATES)[number], string> = {
  queued: "排队等待转码",
  running: "正在转码",
  done: "已转码",
  failed: "转码失败",
};
const videoJobSchema = z.object({
  id: z.number(),
  lessonId: z.number(),
  state: z.enum(VIDEO_JOB_STATES),
  /** 0–100. */
  progress: z.number(),
  /** Why it failed, in words for the operator; null otherwise. */
  message: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Where the transcoded video is served (once done). */
  sources: z.object({ hls: z.string(), mp4: z.string(), poster: z.string() }).nullable(),
});
export type VideoJob = z.infer<typeof videoJobSchema>;
export const lessonVideoJobSchema = z.object({ job: videoJobSchema.nullable() });
export type LessonVideoJob = z.infer<typeof lessonVideoJobSchema>;

export const coverResultSchema = z.object({ coverImage: z.string() });

// ---- books and stationery --------------------------------------------------------------------

export const stockChangeInputSchema = z.object({
  delta: z
    .number()
    .int("数量必须是整数")
    .min(-MAX_STOCK_DELTA, "一次最多调整 100000 件")
    .max(MAX_STOCK_DELTA, "一次最多调整 100000 件")
    .refine((v) => v !== 0, "调整数量不能为 0"),
  reason: requiredText(200, "调整原因"),
});
export type StockChangeInput = z.infer<typeof stockChangeInputSchema>;

const stockChangeSchema = z.object({
  id: z.number(),
  delta: z.number(),
  stockAfter: z.number(),
  reason: z.string(),
  actorName: z.string().nullable(),
  createdAt: z.string(),
});
export type StockChange = z.infer<typeof stockChangeSchema>;
export const stockResultSchema = z.object({ stock: z.number(), change: stockChangeSchema });

const bookFields = z.object({
  title: requiredText(80, "书名"),
  author: requiredText(60, "作者"),
  publisher: requiredText(60, "出版社"),
  isbn: z
    .string()
    .trim()
    .regex(/^(97[89])?\d{9}[\dX]$/, "ISBN 须是 10 或 13 位"),
  tab: requiredText(20, "分类"),
  priceCents: cents("售价"),
  originalPriceCents: cents("划线价"),
  coverChar,
  summary: text(1000, "简介"),
  pages: z
    .number("页数必须是数字")
    .int("页数必须是整数")
    .positive("页数必须大于 0")
    .max(10_000, "页数不能超过 10000")
    .nullable(),
});
/** The reason written on the stock change a new book or variant starts with. */
export const INITIAL_STOCK_REASON = "初始库存";
/** What a new item starts with on the shelf; kept as its first stock change. */
const initialStock = z
  .number("请填写初始库存（整数）")
  .int("初始库存必须是整数")
  .min(0, "初始库存不能为负")
  .max(MAX_STOCK_DELTA, `初始库存最多 ${MAX_STOCK_DELTA} 件`);
/** A new item is either kept back (未上架) or on sale at once. */
const CREATE_STATES = ["draft", "published"] as const;
const createStatus = z.enum(CREATE_STATES, "请选择上架状态");

export const bookCreateSchema = bookFields
  .extend({
    summary: bookFields.shape.summary.default(""),
    pages: bookFields.shape.pages.default(null),
    stock: initialStock.default(0),
    status: createStatus.default("draft"),
  })
  .refine(priceRule, PRICE_RULE_MESSAGE);
export type BookCreate = z.input<typeof bookCreateSchema>;
export const bookPatchSchema = bookFields
  .partial()
  .extend({ status: z.enum(PUBLISH_STATES).optional() })
  .refine((v) => Object.keys(v).length > 0, "没有要修改的内容")
  .refine(priceRule, PRICE_RULE_MESSAGE);

const adminBookSchema = z.object({
  id: z.number(),
  title: z.string(),
  author: z.string(),
  publisher: z.string(),
  isbn: z.string(),
  tab: z.string(),
  priceCents: z.number(),
  originalPriceCents: z.number(),
  stock: z.number(),
  coverChar: z.string(),
  coverImage: z.string().nullable(),
  summary: z.string(),
  pages: z.number().nullable(),
  status: z.enum(PUBLISH_STATES),
  updatedAt: z.string(),
});
export type AdminBook = z.infer<typeof adminBookSchema>;
export const adminBookDetailSchema = adminBookSchema.extend({ history: z.array(stockChangeSchema) });
export type AdminBookDetail = z.infer<typeof adminBookDetailSchema>;

const commodityFields = z.object({
  title: requiredText(80, "商品名称"),
  category: requiredText(20, "分类"),
  summary: text(300, "简介"),
  description: text(5000, "详情"),
  coverChar,
});
export const commodityPatchSchema = commodityFields
  .partial()
  .extend({ status: z.enum(PUBLISH_STATES).optional() })
  .refine((v) => Object.keys(v).length > 0, "没有要修改的内容");

const skuFields = z.object({
  name: requiredText(40, "规格名称"),
  priceCents: cents("售价"),
  originalPriceCents: cents("划线价"),
});
export const skuCreateSchema = skuFields.refine(priceRule, PRICE_RULE_MESSAGE);

/** Most variants one commodity is created with. */
export const MAX_NEW_SKUS = 20;
export const commodityCreateSchema = commodityFields
  .extend({
    summary: commodityFields.shape.summary.default(""),
    description: commodityFields.shape.description.default(""),
    status: createStatus.default("draft"),
    skus: z
      .array(skuFields.extend({ stock: initialStock.default(0) }).refine(priceRule, PRICE_RULE_MESSAGE))
      .max(MAX_NEW_SKUS, `一次最多新建 ${MAX_NEW_SKUS} 个规格`)
      .default([]),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.skus.forEach((sku, i) => {
      if (seen.has(sku.name)) ctx.addIssue({ code: "custom", message: "规格名称不能重复", path: ["skus", i, "name"] });
      seen.add(sku.name);
    });
    if (v.status === "published" && v.skus.length === 0)
      ctx.addIssue({ code: "custom", message: "至少要有一个规格才能上架", path: ["status"] });
  });
export type CommodityCreate = z.input<typeof commodityCreateSchema>;
export const skuPatchSchema = skuFields
  .partial()
  .refine((v) => Object.keys(v).length > 0, "没有要修改的内容")
  .refine(priceRule, PRICE_RULE_MESSAGE);

const adminSkuSchema = z.object({
  id: z.number(),
  name: z.string(),
  priceCents: z.number(),
  originalPriceCents: z.number(),
  stock: z.number(),
  history: z.array(stockChangeSchema),
});
export type AdminSku = z.infer<typeof adminSkuSchema>;

export const adminCommoditySchema = z.object({
  id: z.number(),
  title: z.string(),
  category: z.string(),
  summary: z.string(),
  description: z.string(),
  coverChar: z.string(),
  coverImage: z.string().nullable(),
  status: z.enum(PUBLISH_STATES),
  updatedAt: z.string(),
  skus: z.array(adminSkuSchema),
});
export type AdminCommodity = z.infer<typeof adminCommoditySchema>;
const adminCommodityRowSchema = z.object({
  id: z.number(),
  title: z.string(),
  category: z.string(),
  status: z.enum(PUBLISH_STATES),
  skus: z.number(),
  stock: z.number(),
  minPriceCents: z.number().nullable(),
  updatedAt: z.string(),
});
export type AdminCommodityRow = z.infer<typeof adminCommodityRowSchema>;

// ---- lists (server-side paging, sorting and filtering) --------------------------------------

export const catalogueListQuerySchema = staffPageQuery.extend({
  status: z.enum(PUBLISH_STATES).optional().catch(undefined),
  category: z.string().max(20).optional().catch(undefined),
});
export type CatalogueListQuery = z.infer<typeof catalogueListQuerySchema>;

export const adminCoursePageSchema = pagedOf(adminCourseRowSchema);
export const adminBookPageSchema = pagedOf(adminBookSchema);
export const adminCommodityPageSchema = pagedOf(adminCommodityRowSchema);

// ---- the teacher's own courses -----------------------------------------------------------------

const teachCourseRowSchema = z.object({
  id: z.number(),
  title: z.string(),
  category: z.string(),
  kind: z.enum(COURSE_KINDS),
  status: z.enum(PUBLISH_STATES),
  lessons: z.number(),
  tasks: z.number(),
});
export const teachCoursesSchema = z.object({ courses: z.array(teachCourseRowSchema) });
export type TeachCourseRow = z.infer<typeof teachCourseRowSchema>;

export const lessonNotesSchema = z.object({ summary: text(5000, "课时讲义") });
