/**
 * The database: PGlite stored under DATA_DIR by default (one process, nothing to install), or
 * a PostgreSQL server through a connection pool when DATABASE_URL is set. Both speak the same
 * SQL through Kysely; LISTEN/NOTIFY carries events between web nodes.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { PgliteDialect } from "./pglite-dialect.server";
import type { PoolStats } from "../metrics.server";
import type { DB } from "./schema";

export type Listener = (payload: string) => void;

export interface Database {
  db: Kysely<DB>;
  kind: "pglite" | "postgres";
  ping(): Promise<void>;
  /** Subscribes to a NOTIFY channel; returns the unsubscribe function. */
  listen(channel: string, listener: Listener): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /** The connection pool's size, idle connections and waiting queries (PostgreSQL only; PGlite has one session). */
  poolStats?: () => PoolStats;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… ; empty: PGlite. */
  url?: string;
  /** PGlite's folder; absent: in memory (tests). */
  dataDir?: string;
  /** PostgreSQL schema to work in (each test run gets its own). */
  schema?: string;
  poolSize?: number;
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

function checkChannel(channel: string) {
  if (!CHANNEL.test(channel)) throw new Error(`invalid channel name ${channel}`);
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options) : openPglite(options.dataDir);
}

/**
 * Same values from both drivers: int8 (counts, bigserial ids) as numbers (they stay far below
 * 2^53 here) and \`date\` as its 'YYYY-MM-DD' text, never a Date shifted by the process's zone.
 */
const INT8 = 20;
const DATE = 1082;
const parseInt8 = (value: string) => Number(value);
const keepText = (value: string) => value;
const pgTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8) return parseInt8;
    if (oid === DATE) return keepText;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const parsers = { [INT8]: parseInt8, [DATE]: keepText };
  const pglite = dataDir ? new PGlite(path.join(dataDir, "pglite"), { parsers }) : new PGlite({ parsers });
  await pglite.waitReady;
  const db = new Kysely<DB>({ dialect: new PgliteDialect(pglite) });
  return {
    db,
    kind: "pglite",
    async ping() {
      await sql`select 1`.execute(db);
    },
    async listen(channel, listener) {
      checkChannel(channel);
      const unsubscribe = await pglite.listen(channel, listener);
      return async () => unsubscribe();
    },
    async notify(channel, payload) {
      checkChannel(channel);
      await sql`select pg_notify(${channel}, ${payload})`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const searchPath = options.schema ? `-c search_path=${options.schema}` : undefined;
  if (options.schema && !/^[a-z_][a-z0-9_]*$/.test(options.schema)) throw new Error("invalid schema name");
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    options: searchPath,
    connectionTimeoutMillis: 5000,
    types: pgTypes,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection must not crash the process.
  pool.on("error", () => {});
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });

  // One dedicated connection carries every LISTEN of this process.
  let listenerClient: pg.Client | null = null;
  const listeners = new Map<string, Set<Listener>>();
  async function listenerConnection(): Promise<pg.Client> {
    if (listenerClient) return listenerClient;
    const client = new pg.Client({ connectionString: url, options: searchPath });
    await client.connect();
    client.on("notification", (msg) => {
      for (const l of listeners.get(msg.channel) ?? []) l(msg.payload ?? "");
    });
    client.on("error", () => {
      listenerClient = null;
    });
    listenerClient = client;
    return client;
  }

  return {
    db,
    kind: "postgres",
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async ping() {
      await sql`select 1`.execute(db);
    },
    async listen(channel, listener) {
      checkChannel(channel);
      const client = await listenerConnection();
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        await client.query(`listen ${channel}`);
      }
      set.add(listener);
      return async () => {
        set.delete(listener);
        if (set.size === 0) {
          listeners.delete(channel);
          await client.query(`unlisten ${channel}`).catch(() => {});
        }
      };
    },
    async notify(channel, payload) {
      checkChannel(channel);
      await sql`select pg_notify(${channel}, ${payload})`.execute(db);
    },
    async close() {
      await listenerClient?.end().catch(() => {});
      await db.destroy();
    },
  };
}
