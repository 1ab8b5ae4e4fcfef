/** A teacher's own phrases for comments, kept per teacher. */
import type { Phrases } from "../../../shared/contracts/homework";
import type { ApiContext } from "../../context";
import type { User } from "../../db/schema";
import { requireStaff } from "./staff";

export async function phrasesOf(ctx: ApiContext, user: User): Promise<Phrases> {
  const db = ctx.database.db;
  await requireStaff(db, user);
  const row = await db
    .selectFrom("homework_phrases")
    .select("phrases")
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  return { phrases: row?.phrases ?? DEFAULT_PHRASES };
}

export async function savePhrases(ctx: ApiContext, user: User, input: Phrases): Promise<Phrases> {
  const db = ctx.database.db;
  await requireStaff(db, user);
  const phrases = [...new Set(input.phrases)];
  const json = JSON.stringify(phrases);
  await db
    .insertInto("homework_phrases")
    .values({ user_id: user.id, phrases: json, updated_at: ctx.now() })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ phrases: json, updated_at: ctx.now() }))
    .execute();
  return { phrases };
}

/** What a teacher starts with before saving their own. */
export const DEFAULT_PHRASES = [
  "起笔藏锋到位，收笔干净利落。",
  "结构匀称，中宫收紧会更精神。",
  "横画略平，可稍向右上取势。",
  "点画之间注意呼应，笔断意连。",
  "字距行距再匀一些，通篇会更整齐。",
  "请对照范字多临几遍，注意笔画的长短比例。",
];
