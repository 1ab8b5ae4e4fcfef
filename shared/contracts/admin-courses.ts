/**
 * The operator's courses (/api/admin/…) and the teacher's own (/api/teach/courses…): courses,
 * chapters, lessons with their video and homework task. Money is integer cents (分).
 */
import { z } from "zod";
import { isShippedVideoKey } from "../media";
import { scriptSchema } from "./homework";
import { pagedOf } from "./staff";
import {
  CATEGORY_KEYS,
  COURSE_KINDS,
  COURSE_LEVELS,
  PUBLISH_STATES,
  text,
  requiredText,
  cents,
  coverChar,
  priceRule,
  PRICE_RULE_MESSAGE,
} from "./admin-catalogue-fields";

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

export const adminCourseRowSchema = z.object({
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

export const videoSourceSchema = z.union([
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

export const adminTaskSchema = z.object({
  id: z.number(),
  title: z.string(),
  instructions: z.string(),
  characters: z.string(),
  script: scriptSchema,
  maxPhotos: z.number(),
  submissions: z.number(),
});
export type AdminTask = z.infer<typeof adminTaskSchema>;

export const adminLessonSchema = z.object({
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

export const adminChapterSchema = z.object({
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

export const teacherOptionSchema = z.object({ id: z.number(), name: z.string(), hasAccount: z.boolean() });
export const teacherOptionsSchema = z.object({ teachers: z.array(teacherOptionSchema) });
export type TeacherOption = z.infer<typeof teacherOptionSchema>;

export const encoderStatusSchema = z.object({ available: z.boolean(), message: z.string() });
export type EncoderStatus = z.infer<typeof encoderStatusSchema>;
/** The longest lesson video an operator may upload, seconds (decision 070). */
export const LESSON_VIDEO_MAX_SECONDS = 3 * 3600;

export const NO_ENCODER_MESSAGE =
  "服务器没有安装视频转码器（ffmpeg），暂时不能上传视频文件。请改填视频地址，或由技术人员安装 ffmpeg 后再上传。";

/** A lesson video upload and its background transcoding to HLS (GET/POST /api/admin/lessons/{id}/video). */
export const VIDEO_JOB_STATES = ["queued", "running", "done", "failed"] as const;
export const VIDEO_JOB_STATE_LABELS: Record<(typeof VIDEO_JOB_STATES)[number], string> = {
  queued: "排队等待转码",
  running: "正在转码",
  done: "已转码",
  failed: "转码失败",
};
export const videoJobSchema = z.object({
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

export const adminCoursePageSchema = pagedOf(adminCourseRowSchema);

// ---- the teacher's own courses -----------------------------------------------------------------

export const teachCourseRowSchema = z.object({
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
