/**
 * /api/practice: the 千字文 characters (paged), the character of the day, each character's stroke
 * data (read from hanzi-writer-data one file at a time), the practice diary, tracing, the
 * learning calendar and its private ICS feed.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { z } from "zod";
import { chinaDate } from "../../../shared/china-time";
import {
  calendarFeedSchema,
  calendarQuerySchema,
  calendarSchema,
  diaryDateParamSchema,
  diaryEntryInputSchema,
  diarySaveResultSchema,
  diarySummarySchema,
  HAN,
  myPracticeCharactersSchema,
  traceInputSchema,
  type PracticeCharacter,
  type PracticePage,
  practicePageQuerySchema,
  practicePageSchema,
  type PracticeToday,
  practiceTodaySchema,
} from "../../../shared/contracts/practice";
import {
  HOMEWORK_PHOTO_MAX_BYTES,
  HOMEWORK_PHOTO_TYPES,
  uploadedPhotoSchema,
} from "../../../shared/contracts/homework";
import type { ApiContext } from "../../context";
import { defineEndpoint, textParam, type Endpoint } from "../../endpoint";
import { ApiError, notFound } from "../../http";
import { enforce } from "../../rate-limit";
import { PHOTO_ID, photoUploadReader, unsupportedPhoto } from "../homework/photos";
import { calendarOf, courseCharacters, disableFeed, feedIcs, feedOf, resetFeed } from "./calendar";
import { diarySummary, photoOf, recordTrace, saveEntry } from "./diary";
import { uploadDiaryPhoto } from "./diary-photo";
import { qianziwenPhrases } from "./qianziwen";

const characters: PracticeCharacter[] = qianziwenPhrases.flatMap((phrase, p) =>
  [...phrase].map((char, i) => ({ index: p * 4 + i, char, phrase })),
);

/** Stroke data (hanzi-writer-data, one JSON file per character), read from the package on demand. */
const strokeDir = path.dirname(createRequire(import.meta.url).resolve("hanzi-writer-data/package.json"));
const strokeCache = new Map<string, string | null>();
export function strokeData(char: string): string | null {
  if (!HAN.test(char)) return null;
  if (strokeCache.has(char)) return strokeCache.get(char)!;
  const file = path.join(strokeDir, `${char}.json`);
  const data = existsSync(file) ? readFileSync(file, "utf8") : null;
  if (strokeCache.size < 2000) strokeCache.set(char, data);
  return data;
}

/** Distinct characters of the text that have stroke data: what the page may honestly offer. */
export const distinctCharacters = [...new Set(characters.map((c) => c.char))].filter((c) => strokeData(c) !== null);

export function characterOfDay(now: Date): PracticeToday {
  const date = chinaDate(now);
  const day = Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
  return { date, character: characters[day % characters.length]! };
}

/** Diary photos per learner per hour. */
export const DIARY_UPLOADS_PER_HOUR = 30;
/** Feed fetches per token per hour: calendar applications poll every few minutes at most. */
export const FEED_FETCHES_PER_HOUR = 120;

const diaryDate = {
  date: textParam(
    (date) => diaryDateParamSchema.safeParse(date).success && !Number.isNaN(Date.parse(date)),
    "北京时间日期 YYYY-MM-DD",
    "没有这一天的日记",
  ),
};

/** The feed's address: its private token and `.ics`. */
const feedFile = {
  file: z
    .string()
    .regex(/^[A-Za-z0-9_-]{32}\.ics$/, "订阅地址无效或已重置")
    .transform((file) => file.slice(0, -".ics".length))
    .describe("<令牌>.ics"),
};

export function practiceEndpoints(ctx: ApiContext): Endpoint[] {
  return [...characterEndpoints(ctx), ...diaryEndpoints(ctx), ...calendarEndpoints(ctx)];
}

/** Model characters: the list, the character of the day, stroke data, the learner’s own. */
function characterEndpoints(ctx: ApiContext): Endpoint[] {
  const clock = () => ctx.now();
  return [
    defineEndpoint({
      method: "get",
      path: "/practice/characters",
      summary: "静心习字：千字文逐字分页（offset、limit ≤ 48）",
      tag: "practice",
      auth: false,
      query: practicePageQuerySchema,
      output: practicePageSchema,
      handler: (_req, res, { query: { offset, limit } }) => {
        const items = characters.slice(offset, offset + limit);
        const next = offset + items.length;
        const page: PracticePage = {
          distinct: distinctCharacters.length,
          items,
          total: characters.length,
          nextOffset: next < characters.length ? next : null,
        };
        res.setHeader("Cache-Control", "public, max-age=86400");
        res.json(page);
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/practice/today",
      summary: "静心习字：今日一字（按北京时间的日期轮换）",
      tag: "practice",
      auth: false,
      output: practiceTodaySchema,
      handler: (_req, res) => {
        res.setHeader("Cache-Control", "public, max-age=300");
        res.json(characterOfDay(clock()));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/practice/strokes/{char}",
      summary: "一个字的笔顺数据（hanzi-writer-data，逐字按需读取）",
      tag: "practice",
      auth: false,
      params: { char: z.string().describe("一个汉字") },
      handler: (req, res, { params }) => {
        const data = strokeData(params.char);
        if (!data) throw notFound("这个字暂时没有笔顺数据");
        res.setHeader("Cache-Control", "public, max-age=604800, immutable");
        res.type("application/json").send(data);
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/practice/my-characters",
      summary: "我的课程里作业的范字（按课程）",
      tag: "practice",
      auth: true,
      output: myPracticeCharactersSchema,
      handler: async (_req, res, { auth: { user } }) => {
        res.json({ courses: await courseCharacters(ctx, user.id) });
      },
    }),
  ];
}

/** The practice diary: entries, their photos, tracing. */
function diaryEndpoints(ctx: ApiContext): Endpoint[] {
  const readPhoto = photoUploadReader(ctx, {
    key: (userId) => `practice:upload:user:${userId}`,
    perHour: DIARY_UPLOADS_PER_HOUR,
  });
  return [
    defineEndpoint({
      method: "get",
      path: "/practice/diary",
      summary: "练字日记：连续天数、累计、一年的热力图、近 12 周每周分钟数、最常练的字与最近的日记",
      tag: "practice",
      auth: true,
      output: diarySummarySchema,
      handler: async (_req, res, { auth: { user } }) => {
        res.json(await diarySummary(ctx, user.id));
      },
    }),
    defineEndpoint({
      method: "put",
      path: "/practice/diary/{date}",
      summary: "写今天的日记（当天可随时修改；漏掉的一天只能在第二天补写）；当天第一次写入即每日打卡，得金币",
      tag: "practice",
      auth: true,
      params: diaryDate,
      input: diaryEntryInputSchema,
      output: diarySaveResultSchema,
      handler: async (req, res, { auth: { user }, input, params }) => {
        res.json(await saveEntry(ctx, user.id, params.date, input));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/practice/diary/{date}/photo",
      summary: "日记配图（原始图片字节，JPEG/PNG/WebP；与作业照片同样的检查，去除 EXIF；仅本人可见）",
      tag: "practice",
      auth: true,
      params: diaryDate,
      raw: { binary: HOMEWORK_PHOTO_TYPES, maxBytes: HOMEWORK_PHOTO_MAX_BYTES },
      output: uploadedPhotoSchema,
      before: readPhoto,
      handler: async (req, res, { auth: { user }, params }) => {
        const date = params.date;
        if (!Buffer.isBuffer(req.body)) throw unsupportedPhoto();
        if (req.body.length === 0) throw new ApiError(400, "invalid_input", "请选择一张照片");
        res.status(201).json(await uploadDiaryPhoto(ctx, user.id, date, req.body));
      },
    }),
    ...(["display", "thumb"] as const).map((size) =>
      defineEndpoint({
        method: "get",
        path: `/practice/diary/photos/{photoId}/${size}`,
        summary: size === "display" ? "日记配图（仅本人）" : "日记配图缩略图（仅本人）",
        tag: "practice",
        auth: true,
        params: { photoId: textParam(PHOTO_ID, "照片 id", "照片不存在") },
        produces: "image/jpeg",
        handler: async (req, res, { auth: { user }, params }) => {
          const bytes = await photoOf(ctx, user.id, params.photoId, size);
          if (!bytes) throw notFound("照片不存在");
          res.setHeader("Cache-Control", "private, max-age=3600");
          res.type("image/jpeg").send(bytes);
        },
      }),
    ),
    defineEndpoint({
      method: "post",
      path: "/practice/trace",
      summary: "静心习字：描完一个字，把用时和这个字记入今天的日记",
      tag: "practice",
      auth: true,
      input: traceInputSchema,
      output: diarySaveResultSchema,
      handler: async (_req, res, { auth: { user }, input }) => {
        res.json(await recordTrace(ctx, user.id, input));
      },
    }),
  ];
}

/** The learning calendar and its private ICS feed. */
function calendarEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    defineEndpoint({
      method: "get",
      path: "/practice/calendar",
      summary: "学习日历：直播课（所学课程与已预约）、训练营解锁日、作业、练字日记，按北京时间日期（最多 62 天）",
      tag: "practice",
      auth: true,
      query: calendarQuerySchema,
      output: calendarSchema,
      handler: async (_req, res, { auth: { user }, query }) => {
        res.json(await calendarOf(ctx, user.id, query.from, query.to));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/practice/calendar/feed",
      summary: "学习日历订阅地址（私密；未开启时为 null）",
      tag: "practice",
      auth: true,
      output: calendarFeedSchema,
      handler: async (_req, res, { auth: { user } }) => {
        res.json(await feedOf(ctx, user.id));
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/practice/calendar/feed",
      summary: "开启或重置学习日历订阅地址（旧地址立即失效）",
      tag: "practice",
      auth: true,
      output: calendarFeedSchema,
      handler: async (_req, res, { auth: { user } }) => {
        res.json(await resetFeed(ctx, user.id));
      },
    }),
    defineEndpoint({
      method: "delete",
      path: "/practice/calendar/feed",
      summary: "关闭学习日历订阅（地址立即失效）",
      tag: "practice",
      auth: true,
      output: calendarFeedSchema,
      handler: async (_req, res, { auth: { user } }) => {
        res.json(await disableFeed(ctx, user.id));
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/practice/feed/{file}",
      summary: "学习日历订阅（ICS，地址中含私密令牌：直播课提前 15 分钟提醒、训练营解锁日）",
      tag: "practice",
      auth: false,
      params: feedFile,
      produces: "text/calendar",
      handler: async (req, res, { params }) => {
        const token = params.file;
        await enforce(
          ctx.database,
          [
            {
              key: `practice:feed:${token.slice(0, 12)}`,
              max: FEED_FETCHES_PER_HOUR,
              windowSeconds: 3600,
              message: "订阅刷新太频繁了",
            },
          ],
          ctx.now(),
        );
        const ics = await feedIcs(ctx, token);
        if (!ics) throw notFound("订阅地址无效或已重置");
        res.setHeader("Cache-Control", "private, max-age=300");
        res.setHeader("X-Robots-Tag", "noindex");
        res.type("text/calendar; charset=utf-8").send(ics);
      },
    }),
  ];
}
