/**
 * Shapes shared by every catalogue listing (home, course list, search, personal centre):
 * course, book, commodity, live-session and teacher summaries. Detail shapes live beside the
 * module that serves them.
 */
import { z } from "zod";
import type { CoverTone } from "../media";

export const courseKinds = { recorded: "录播课", live: "直播课", camp: "训练营" } as const;
export type CourseKindKey = keyof typeof courseKinds;
export const courseLevels = { beginner: "入门", intermediate: "进阶", advanced: "提高" } as const;
export type CourseLevelKey = keyof typeof courseLevels;

/** Cover tone per course category, so a category reads the same everywhere. */
export const categoryTones: Record<string, CoverTone> = {
  kaishu: "ink",
  xingshu: "indigo",
  lishu: "jade",
  zhuanshu: "red",
  caoshu: "ink",
  yingbi: "jade",
  xiezuo: "gold",
  guoxue: "red",
};

export const teacherSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  specialty: z.string(),
  bio: z.string(),
  portraitChar: z.string(),
});
export type TeacherSummary = z.infer<typeof teacherSummarySchema>;

export const courseSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  subtitle: z.string(),
  category: z.string(),
  kind: z.enum(["recorded", "live", "camp"]),
  level: z.enum(["beginner", "intermediate", "advanced"]),
  teacherName: z.string(),
  priceCents: z.number().int(),
  originalPriceCents: z.number().int(),
  learnersCount: z.number().int(),
  lessonsCount: z.number().int(),
  coverChar: z.string(),
  /** The picture an operator uploaded, shown instead of the generated cover. */
  coverImage: z.string().nullable().optional(),
  isPublic: z.boolean(),
});
export type CourseSummary = z.infer<typeof courseSummarySchema>;

export const bookSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  author: z.string(),
  publisher: z.string(),
  tab: z.string(),
  priceCents: z.number().int(),
  originalPriceCents: z.number().int(),
  stock: z.number().int(),
  coverChar: z.string(),
  coverImage: z.string().nullable().optional(),
});
export type BookSummary = z.infer<typeof bookSummarySchema>;

export const commoditySummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  category: z.string(),
  summary: z.string(),
  /** Lowest SKU price, and whether any SKU has stock. */
  priceCents: z.number().int(),
  originalPriceCents: z.number().int(),
  inStock: z.boolean(),
  sales: z.number().int(),
  coverChar: z.string(),
  coverImage: z.string().nullable().optional(),
});
export type CommoditySummary = z.infer<typeof commoditySummarySchema>;

export const liveStates = {
  scheduled: "未开始",
  live: "直播中",
  ended: "已结束",
  processing: "回放生成中",
  replay: "可回放",
  cancelled: "已取消",
} as const;
export type LiveStateKey = keyof typeof liveStates;

export const liveSummarySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  courseId: z.number().int().nullable(),
  courseTitle: z.string().nullable(),
  teacherName: z.string(),
  coverChar: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  state: z.enum(["scheduled", "live", "ended", "processing", "replay", "cancelled"]),
  isOpen: z.boolean(),
});
export type LiveSummary = z.infer<typeof liveSummarySchema>;
