/** GET /api/practice/characters (paged) and /api/practice/today (the character of the day). */
import { chinaDate } from "../../../shared/china-time";
import {
  type PracticeCharacter,
  type PracticePage,
  practicePageQuerySchema,
  practicePageSchema,
  type PracticeToday,
  practiceTodaySchema,
} from "../../../shared/contracts/practice";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { qianziwenPhrases } from "./qianziwen";

const characters: PracticeCharacter[] = qianziwenPhrases.flatMap((phrase, p) =>
  [...phrase].map((char, i) => ({ index: p * 4 + i, char, phrase })),
);

export function characterOfDay(now: Date): PracticeToday {
  const date = chinaDate(now);
  const day = Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
  return { date, character: characters[day % characters.length]! };
}

export function practiceEndpoints(clock: () => Date = () => new Date()): Endpoint[] {
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
  ];
}
