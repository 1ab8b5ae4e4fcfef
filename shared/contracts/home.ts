/** The home page in one call (GET /api/home): the same for every visitor, cached for a minute. */
import { z } from "zod";
import {
  bookSummarySchema,
  commoditySummarySchema,
  courseSummarySchema,
  liveSummarySchema,
  teacherSummarySchema,
} from "./catalogue";

export const bannerSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  subtitle: z.string(),
  /** A path on this site. */
  link: z.string(),
  glyph: z.string(),
  tone: z.string(),
});
export type Banner = z.infer<typeof bannerSchema>;

export const HOME_LIMITS = { featured: 8, newest: 8, live: 6, books: 6, stationery: 8 } as const;

export const homeSchema = z.object({
  banners: z.array(bannerSchema),
  /** Every category of shared/catalogue in its order, with its number of published courses. */
  categories: z.array(z.object({ key: z.string(), name: z.string(), count: z.number().int() })),
  featured: z.array(courseSummarySchema),
  newest: z.array(courseSummarySchema),
  /** On now first, then the next ones (cancelled sessions left out). */
  live: z.array(liveSummarySchema),
  books: z.array(bookSummarySchema),
  stationery: z.array(commoditySummarySchema),
  teachers: z.array(teacherSummarySchema),
});
export type Home = z.infer<typeof homeSchema>;
