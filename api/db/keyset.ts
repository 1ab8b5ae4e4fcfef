/**
 * Keyset paging over a (time, id) order: the cursor names the last row shown as `<ms>.<id>`, and
 * the next page starts strictly after it, so rows added meanwhile neither repeat nor shift a page.
 */
import type { ExpressionBuilder, ReferenceExpression } from "kysely";

export interface Keyset {
  at: Date;
  id: number;
}

const CURSOR = /^(\d{1,15})\.(\d{1,10})$/;

/** The position a cursor names; null for none or one not in the `<ms>.<id>` form. */
export function readCursor(cursor: string | undefined): Keyset | null {
  const match = cursor ? CURSOR.exec(cursor) : null;
  return match ? { at: new Date(Number(match[1])), id: Number(match[2]) } : null;
}

export const cursorAt = (at: Date, id: number): string => `${at.getTime()}.${id}`;

/** Rows after `cursor` in the order (`at`, `id`) ascending, or descending with "desc". */
export function pastCursor<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  at: ReferenceExpression<DB, TB>,
  id: ReferenceExpression<DB, TB>,
  cursor: Keyset,
  order: "asc" | "desc",
) {
  const beyond = order === "asc" ? ">" : "<";
  return eb.or([eb(at, beyond, cursor.at), eb.and([eb(at, "=", cursor.at), eb(id, beyond, cursor.id)])]);
}
