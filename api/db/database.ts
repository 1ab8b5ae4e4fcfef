/**
 * The database: PGlite stored under DATA_DIR by default (one process, nothing to install), or
 * a PostgreSQL server through a connection pool when DATABASE_URL is set. Both speak the same
 * SQL through Kysely; LISTEN/NOTIFY carries events between web nodes.
 */
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { PGlite } from "@electric-sql/pglite";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import type { Logger } from "pino";
import { PgliteDialect } from "./pglite-dialect";
import type { PoolStats } from "../metrics";
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
  /**
   * Called each time LISTEN is back after its connection was lost (a PostgreSQL restart):
   * notifications sent meanwhile never arrive, so subscribers re-read what they may have missed.
   */
  onListenRestored(callback: () => void): () => void;
  /** The whole PGlite cluster as a gzip tar archive (PGlite only; see pglite-cluster.ts). */
  dumpCluster?: () => Promise<Uint8Array>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… ; empty: PGlite. */
  url?: string;
  /** PGlite's folder; absent: in memory (tests). */
  dataDir?: string;
  /**
   * A new PGlite database is unpacked from this cluster archive instead of made by initdb
   * (readClusterArchive in pglite-cluster.ts). Ignored on PostgreSQL and for an existing folder.
   */
  clusterArchive?: Blob;
  /** PostgreSQL schema to work in (each test run gets its own). */
  schema?: string;
  poolSize?: number;
  /** Shown in pg_stat_activity; the LISTEN connection adds " listen". */
  applicationName?: string;
  logger?: Pick<Logger, "info" | "warn">;
  /** First wait before LISTEN reconnects (then doubling up to 10 s); tests widen it. */
  listenRetryBaseMs?: number;
}

/** LISTEN reconnects after 0.25 s, doubling up to 10 s, each wait jittered (half fixed, half random). */
export const LISTEN_RETRY_BASE_MS = 250;
export const LISTEN_RETRY_MAX_MS = 10_000;

export function listenRetryDelay(
  attempt: number,
  random: () => number = Math.random,
  base = LISTEN_RETRY_BASE_MS,
): number {
  const ceiling = Math.min(Math.max(LISTEN_RETRY_MAX_MS, base), base * 2 ** Math.min(attempt, 16));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

function checkChannel(channel: string) {
  if (!CHANNEL.test(channel)) throw new Error(`invalid channel name ${channel}`);
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options) : openPglite(options.dataDir, options.clusterArchive);
}

/**
 * Same values from both drivers: int8 (counts, bigserial ids) as numbers (they stay far below
 * 2^53 here) and \`date\` as its 'YYYY-MM-DD' text, never a Date shifted by the process's zone.
 */
const INT8 = 20;
const BYTEA = 17;

/**
 * bytea in PGlite's text format ('\\x' and hex), converted by Buffer's native hex codec. PGlite's
 * own converters go byte by byte in JavaScript (an array of strings per byte, parseInt per byte
 * back): seconds for the demo homework's photos, and a large garbage peak on every photo upload.
 * Read as a Buffer, as node-postgres returns bytea on PostgreSQL.
 */
function byteaToHex(value: unknown): string {
  if (!(value instanceof Uint8Array)) throw new Error("Invalid input for bytea type");
  return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex")}`;
}
const byteaFromHex = (text: string) => Buffer.from(text.slice(2), "hex");
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

/**
 * PGlite's PostgreSQL keeps its shared buffers inside the WebAssembly memory and writes all of
 * them at start: at PostgreSQL's default of 128 MB they were a third of an idle node's memory.
 * 32 MB hold this site's hot data (the whole embedded database is about 50 MB on disk, mostly
 * catalogue tables); the rest is read through the operating system's file cache (decision 028).
 */
const PGLITE_SHARED_BUFFERS = "32MB";

/** What every PGlite of this site starts with; a cluster archive is only loaded with the same. */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, "-c", `shared_buffers=${PGLITE_SHARED_BUFFERS}`];

/**
 * A new PGlite folder is made by initdb, which PGlite runs in two more WebAssembly instances.
 * Their memory (about 600 MB) is garbage once the database is open, but an idle server may not
 * collect it for a long time: one full collection right after a new folder is made returns it.
 * (Running initdb in a child process instead costs another WebAssembly compilation: 5–6 s more
 * on the first start on this project's machine.)
 */
function collectGarbageOnce() {
  try {
    v8.setFlagsFromString("--expose-gc");
    (runInNewContext("gc") as () => void)();
  } catch {
    // Not allowed here (a restricted runtime): the memory is returned at the next collection.
  }
}

/** Whether DATA_DIR already holds an embedded database (else the first open makes one). */
export const hasPgliteDatabase = (dataDir: string) => existsSync(path.join(dataDir, "pglite", "PG_VERSION"));

async function openPglite(dataDir: string | undefined, clusterArchive: Blob | undefined): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const folder = dataDir ? path.join(dataDir, "pglite") : undefined;
  const isNew = dataDir === undefined || !hasPgliteDatabase(dataDir);
  const options = {
    parsers: { [INT8]: parseInt8, [DATE]: keepText, [BYTEA]: byteaFromHex },
    serializers: { [BYTEA]: byteaToHex },
    startParams: PGLITE_START_PARAMS,
    ...(isNew && clusterArchive ? { loadDataDir: clusterArchive } : {}),
  };
  const pglite = folder ? new PGlite(folder, options) : new PGlite(options);
  await pglite.waitReady;
  // initdb's WebAssembly instances (not made when the cluster came from an archive).
  if (isNew && folder !== undefined && !clusterArchive) collectGarbageOnce();
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
    // One process owns PGlite: its LISTEN cannot be lost.
    onListenRestored() {
      return () => {};
    },
    async dumpCluster() {
      return new Uint8Array(await (await pglite.dumpDataDir("gzip")).arrayBuffer());
    },
    async close() {
      await db.destroy();
    },
  };
}

/** The pool of query connections (LISTEN has its own connection). */
function postgresPool(url: string, options: DatabaseOptions, searchPath: string | undefined): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    options: searchPath,
    application_name: options.applicationName ?? "mochi-classroom",
    connectionTimeoutMillis: 5000,
    types: pgTypes,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection must not crash the process.
  pool.on("error", () => {});
  return pool;
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  const searchPath = options.schema ? `-c search_path=${options.schema}` : undefined;
  if (options.schema && !/^[a-z_][a-z0-9_]*$/.test(options.schema)) throw new Error("invalid schema name");
  const pool = postgresPool(url, options, searchPath);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });

  // One dedicated connection carries every LISTEN of this process. When it is lost (a restart,
  // a terminated backend, a network cut) it is opened again with backoff and every channel is
  // listened to again; subscribers are then told, so they can replay what they missed.
  const applicationName = options.applicationName ?? "mochi-classroom";
  const logger = options.logger;
  const listeners = new Map<string, Set<Listener>>();
  const restoredCallbacks = new Set<() => void>();
  let listenerClient: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let reconnecting = false;
  let retryTimer: NodeJS.Timeout | undefined;
  let closed = false;

  async function connectListener(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: url,
      options: searchPath,
      application_name: `${applicationName} listen`,
      keepAlive: true,
    });
    let gone = false;
    const onLost = (err?: Error) => {
      if (gone) return;
      gone = true;
      client.end().catch(() => {});
      if (listenerClient !== client) return;
      listenerClient = null;
      logger?.warn(
        { err: err && { message: err.message, code: (err as { code?: string }).code } },
        "LISTEN connection lost",
      );
      scheduleReconnect(0);
    };
    client.on("error", onLost);
    client.on("end", () => onLost());
    client.on("notification", (msg) => {
      for (const l of listeners.get(msg.channel) ?? []) l(msg.payload ?? "");
    });
    try {
      await client.connect();
      for (const channel of listeners.keys()) await client.query(`listen ${channel}`);
    } catch (err) {
      gone = true;
      client.end().catch(() => {});
      throw err;
    }
    return client;
  }

  function scheduleReconnect(attempt: number) {
    if (closed) return;
    reconnecting = true;
    retryTimer = setTimeout(
      () => {
        connectListener().then(
          (client) => {
            if (closed) {
              client.end().catch(() => {});
              return;
            }
            listenerClient = client;
            reconnecting = false;
            logger?.info({ attempts: attempt + 1, channels: listeners.size }, "LISTEN connection restored");
            for (const callback of restoredCallbacks) callback();
          },
          (err: Error) => {
            logger?.warn({ err: { message: err.message }, attempt: attempt + 1 }, "LISTEN reconnect failed");
            scheduleReconnect(attempt + 1);
          },
        );
      },
      listenRetryDelay(attempt, Math.random, options.listenRetryBaseMs),
    );
    retryTimer.unref();
  }

  async function listenerConnection(): Promise<pg.Client> {
    if (listenerClient) return listenerClient;
    connecting ??= connectListener()
      .then((client) => {
        listenerClient = client;
        return client;
      })
      .finally(() => {
        connecting = null;
      });
    return connecting;
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
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        // While reconnecting the channel is only noted: the new connection listens to it.
        if (!reconnecting) {
          const client = await listenerConnection();
          await client.query(`listen ${channel}`);
        }
        set = listeners.get(channel) ?? set;
        listeners.set(channel, set);
      }
      set.add(listener);
      const own = set;
      return async () => {
        own.delete(listener);
        if (own.size === 0 && listeners.get(channel) === own) {
          listeners.delete(channel);
          await listenerClient?.query(`unlisten ${channel}`).catch(() => {});
        }
      };
    },
    async notify(channel, payload) {
      checkChannel(channel);
      await sql`select pg_notify(${channel}, ${payload})`.execute(db);
    },
    onListenRestored(callback) {
      restoredCallbacks.add(callback);
      return () => restoredCallbacks.delete(callback);
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      const client = listenerClient;
      listenerClient = null;
      await client?.end().catch(() => {});
      await db.destroy();
    },
  };
}
