/** The practice gallery of /calmness: the characters of 千字文, one card each. */
import { z } from "zod";

export const practiceCharacterSchema = z.object({
  /** Position in the text, from 0. */
  index: z.number().int().nonnegative(),
  char: z.string().length(1),
  /** The four-character phrase it belongs to. */
  phrase: z.string(),
});
export type PracticeCharacter = z.infer<typeof practiceCharacterSchema>;

const badQuery = { error: "查询参数不正确" };
export const practicePageQuerySchema = z.strictObject(
  {
    offset: z.coerce.number(badQuery).int(badQuery).min(0, badQuery).max(100_000, badQuery).default(0),
    limit: z.coerce.number(badQuery).int(badQuery).min(1, badQuery).max(48, badQuery).default(24),
  },
  badQuery,
);
export type PracticePageQuery = z.infer<typeof practicePageQuerySchema>;

export const practicePageSchema = z.object({
  items: z.array(practiceCharacterSchema),
  total: z.number().int().nonnegative(),
  nextOffset: z.number().int().nonnegative().nullable(),
});
export type PracticePage = z.infer<typeof practicePageSchema>;

export const practiceTodaySchema = z.object({
  date: z.string(),
  character: practiceCharacterSchema,
});
export type PracticeToday = z.infer<typeof practiceTodaySchema>;

/** Address of the generated practice sheet (米字格) for one character. */
export function glyphUrl(char: string): string {
  return `/media/glyph/${char.codePointAt(0)?.toString(16) ?? "0"}.svg`;
}
