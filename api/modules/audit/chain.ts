/**
 * Checking the audit log's hash chain (migration 021): one pass over the rows in id order, in
 * the database, that recomputes each row's hash and compares each row's `prev_hash` with the
 * hash of the row before it; then the newest row against the chain's head. The first row that
 * fails is named:
 * - `altered`: its fields (or its hashes) are not what was written;
 * - `unlinked`: the row before it is not the one it was chained to (a row was deleted there);
 * - `cut`: the newest rows are gone (the head names a later row than the table holds).
 * Rows appended while the check runs are beyond the head it read, and wait for the next check.
 *
 * A walk may start from a checkpoint (the newest row of an earlier walk that found the chain
 * whole): it then checks only the rows after it, chained from the checkpoint's hash. That cannot
 * see a change to the rows before the checkpoint, so the console still walks every row now and
 * then (endpoints.ts), and `npm run audit:verify` always does.
 */
import { type Kysely, sql } from "kysely";
import type { DB } from "../../db/schema";

/** What the first row chains from (the head of an empty log). */
export const AUDIT_CHAIN_GENESIS = "0".repeat(64);

export type ChainProblem = "altered" | "unlinked" | "cut";

export interface ChainBreak {
  /** The broken row; for `cut`, the newest row left (null: none left). */
  id: number | null;
  at: Date | null;
  action: string | null;
  problem: ChainProblem;
}

/** The newest row of a walk that found the chain whole, and how many rows it had. */
export interface ChainCheckpoint {
  id: number;
  hash: string;
  count: number;
}

export interface ChainCheck {
  /** Rows in the chain up to the head read at the start (those before a checkpoint counted, not read). */
  count: number;
  /** The hash of the newest row: written down elsewhere, it shows a later rewrite of the whole chain. */
  head: string;
  broken: ChainBreak | null;
  /** Where the next walk may start (only when the chain is whole). */
  checkpoint: ChainCheckpoint | null;
}

interface WalkRow {
  id: number;
  created_at: Date;
  action: string;
  hash: string;
  problem: "altered" | "unlinked" | null;
  total: string | number;
  newest: boolean;
}

export async function verifyAuditChain(db: Kysely<DB>, since?: ChainCheckpoint): Promise<ChainCheck> {
  const head = await db.selectFrom("audit_chain").select(["last_id", "hash"]).executeTakeFirstOrThrow();
  const start = since ?? { id: 0, hash: AUDIT_CHAIN_GENESIS, count: 0 };
  const { rows } = await sql<WalkRow>`
    with walk as (
      select
        a.id,
        a.created_at,
        a.action,
        a.hash,
        case
          when a.hash is distinct from audit_log_row_hash(a) then 'altered'
          when a.prev_hash is distinct from coalesce(lag(a.hash) over w, ${start.hash}) then 'unlinked'
        end as problem,
        count(*) over () as total,
        row_number() over w = count(*) over () as newest
      from audit_log a
      where a.id > ${start.id} and a.id <= ${head.last_id}
      window w as (order by a.id)
    )
    (select * from walk where problem is not null order by id limit 1)
    union all
    (select * from walk where newest)
  `.execute(db);
  const newest = rows.find((r) => r.newest);
  const count = start.count + Number(newest?.total ?? 0);
  const first = rows.find((r) => r.problem !== null);
  const broken = (row: WalkRow | undefined, problem: ChainProblem): ChainCheck => ({
    count,
    head: head.hash,
    broken: { id: row?.id ?? null, at: row?.created_at ?? null, action: row?.action ?? null, problem },
    checkpoint: null,
  });
  if (first?.problem) return broken(first, first.problem);
  const end = newest ? { id: newest.id, hash: newest.hash } : start;
  if (end.id !== head.last_id || end.hash !== head.hash) return broken(newest, "cut");
  return { count, head: head.hash, broken: null, checkpoint: { ...end, count } };
}
