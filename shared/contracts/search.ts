/**
 * One search over courses, books, stationery, live sessions, public lessons, playback and
 * activities (/api/search): the query, the result page
 * with counts per kind for the tabs, and the suggestions an empty search shows.
 */
import { z } from "zod";
import { bookSummarySchema, commoditySummarySchema, courseSummarySchema } from "./catalogue";
import { pageNumberParam, strictQueryError } from "./shop";

export const SEARCH_QUERY_MAX = 40;
export const SEARCH_PAGE_SIZE = 12;

export const searchKinds = {
  all: "全部",
  course: "课程",
  book: "书籍",
  commodity: "文房",
  live: "直播",
  lesson: "公开课",
  playback: "回放",
  activity: "活动",
} as const;
export type SearchKind = keyof typeof searchKinds;
const searchKindKeys = Object.keys(searchKinds) as [SearchKind, ...SearchKind[]];

/** What people look for most; shown when a search is empty or finds nothing. */
export const popularSearches = ["楷书", "兰亭序", "硬笔", "毛笔", "宣纸", "千字文"] as const;

/** The words searched for: trimmed, 1–40 characters. */
export const searchTermSchema = z
  .string("请输入要搜索的内容")
  .trim()
  .min(1, "请输入要搜索的内容")
  .refine((v) => [...v].length <= SEARCH_QUERY_MAX, `搜索内容最多 ${SEARCH_QUERY_MAX} 个字`)
  .refine((v) => ![...v].some((ch) => ch.charCodeAt(0) < 0x20 || ch === "\u007f"), "搜索内容不能包含控制字符");

export const searchQuerySchema = z.strictObject(
  {
    q: searchTermSchema,
    kind: z.enum(searchKindKeys, "搜索范围不正确").default("all"),
    page: pageNumberParam("页码", 100, 1),
    pageSize: pageNumberParam("每页数量", 48, SEARCH_PAGE_SIZE),
  },
  { error: strictQueryError },
);
export type SearchQuery = z.infer<typeof searchQuerySchema>;

/**
 * `matched` says where the words were found: the title, or another field; then `snippet` is
 * that field's text (a subtitle, an author, a teacher's name…) so the page can show why.
 */
/**
 * A live session, public lesson, playback or activity as a result: its page (`href`), the
 * cover character, a line of context (teacher, date) and when it happens or was published.
 */
export const searchEntrySchema = z.object({
  id: z.number().int(),
  title: z.string(),
  summary: z.string(),
  coverChar: z.string(),
  href: z.string(),
  meta: z.string().nullable(),
  at: z.string().nullable(),
});
export type SearchEntry = z.infer<typeof searchEntrySchema>;

const hitBase = { matched: z.enum(["title", "other"]), snippet: z.string().nullable() };

export const searchHitSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("course"), course: courseSummarySchema, ...hitBase }),
  z.object({ kind: z.literal("book"), book: bookSummarySchema, ...hitBase }),
  z.object({ kind: z.literal("commodity"), commodity: commoditySummarySchema, ...hitBase }),
  z.object({ kind: z.literal("live"), entry: searchEntrySchema, ...hitBase }),
  z.object({ kind: z.literal("lesson"), entry: searchEntrySchema, ...hitBase }),
  z.object({ kind: z.literal("playback"), entry: searchEntrySchema, ...hitBase }),
  z.object({ kind: z.literal("activity"), entry: searchEntrySchema, ...hitBase }),
]);
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchResultSchema = z.object({
  q: z.string(),
  kind: z.enum(searchKindKeys),
  counts: z.object({
    all: z.number().int(),
    course: z.number().int(),
    book: z.number().int(),
    commodity: z.number().int(),
    live: z.number().int(),
    lesson: z.number().int(),
    playback: z.number().int(),
    activity: z.number().int(),
  }),
  items: z.array(searchHitSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  pageCount: z.number().int(),
});
export type SearchResult = z.infer<typeof searchResultSchema>;
