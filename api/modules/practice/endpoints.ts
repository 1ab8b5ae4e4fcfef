/** GET /api/practice/characters (paged) and /api/practice/today (the character of the day). */
import express, { type Router } from "express";
import { chinaDate } from "../../../shared/china-time";
import {
  type PracticeCharacter,
  type PracticePage,
  type PracticeToday,
  practicePageQuerySchema,
} from "../../../shared/contracts/practice";
import { ApiError } from "../../http";
import { qianziwenPhrases } from "./qianziwen";

const characters: PracticeCharacter[] = qianziwenPhrases.flatMap((phrase, p) =>
  [...phrase].map((char, i) => ({ index: p * 4 + i, char, phrase })),
);

export function characterOfDay(now: Date): PracticeToday {
  const date = chinaDate(now);
  const day = Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
  return { date, character: characters[day % characters.length]! };
}

export function createPracticeRouter(clock: () => Date = () => new Date()): Router {
  const router = express.Router();
  router.get("/characters", (req, res) => {
    const query = practicePageQuerySchema.safeParse(req.query);
    if (!query.success) throw new ApiError(400, "invalid_query", "查询参数不正确");
    const { offset, limit } = query.data;
    const items = characters.slice(offset, offset + limit);
    const next = offset + items.length;
    const page: PracticePage = { items, total: characters.length, nextOffset: next < characters.length ? next : null };
    res.setHeader("Cache-Control", "public, max-age=86400");
    res.json(page);
  });
  router.get("/today", (_req, res) => {
    res.setHeader("Cache-Control", "public, max-age=300");
    res.json(characterOfDay(clock()));
  });
  return router;
}
