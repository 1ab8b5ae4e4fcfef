/**
 * Anonymous pages are kept in memory until the catalogue changes (decision 026), and "the catalogue
 * changed" is a database trigger on each table a public page reads (migrations 010 and 019). That
 * list of tables is kept by hand, so this test keeps it honest: it renders every public page
 * anonymously with every statement the site sends recorded, asks PostgreSQL which tables each
 * recorded read scans (EXPLAIN of its generic plan), and fails when a page the cache would keep
 * read a table that has no change trigger: that page would be served stale after a write.
 *
 * EXPLAIN (GENERIC_PLAN) needs PostgreSQL 16; on an older server the test is skipped (PGlite, the
 * default, is 17, and the schema and the reads are the same on both).
 */
import { type CompiledQuery, type KyselyPlugin, type RootOperationNode, sql } from "kysely";
import pino from "pino";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedCatalogue } from "../../api/seed/catalogue";
import { seedCommerce } from "../../api/seed/commerce";
import type { Database } from "../../api/db/database";
import { createApp } from "../../server/app";
import { loadConfig } from "../../server/config";
import { openServices } from "../../server/services";
import { accessOf, walkRoutes } from "../../shared/routes";
import { testDatabase, type TestDatabase } from "../db";
import { BROWSER_UA, clientDir } from "./helpers";

/** Every statement run through the site's query builder, as SQL, while `recording` is on. */
class QueryRecorder implements KyselyPlugin {
  recording = false;
  readonly statements: string[] = [];
  constructor(private readonly compile: (node: RootOperationNode) => CompiledQuery) {}
  transformQuery({ node }: { node: RootOperationNode }): RootOperationNode {
    if (this.recording) this.statements.push(this.compile(node).sql);
    return node;
  }
  async transformResult<R>({ result }: { result: R }): Promise<R> {
    return result;
  }
}

/** Sample values for path parameters: ids of the demo catalogue, and well-formed tokens. */
const sampleParams: Record<string, string> = {
  id: "12",
  token: "spring-2026",
  ticket: "aB3dE5fG7hJ9kL1mN3pQ5r",
  groupNo: "GB26112200000001",
};

/** Public pages whose query string changes what they read. */
const withQueries = ["/search?q=楷书", "/course?category=maobi", "/books?page=2", "/homework?page=2"];

const publicPages = [
  ...walkRoutes()
    .filter(({ def, parents }) => !def.children?.length && accessOf([...parents, def]) === "public")
    .filter(({ def }) => !def.id.startsWith("fixture."))
    .map(({ fullPath }) => fullPath.replace(/:(\w+)/g, (_, name: string) => sampleParams[name] ?? "x")),
  ...withQueries,
];

let handle: TestDatabase;
let database: Database;
let recorder: QueryRecorder;
let app: Awaited<ReturnType<typeof createApp>>["app"];
let explainable = true;

beforeAll(async () => {
  handle = await testDatabase();
  database = handle.database;
  const { rows } = await sql<{ version: number }>`select current_setting('server_version_num')::int as version`.execute(
    database.db,
  );
  explainable = rows[0]!.version >= 160000;
  await seedCatalogue(database, new Date());
  await seedCommerce(database);
  const plain = database.db;
  recorder = new QueryRecorder((node) => plain.getExecutor().compileQuery(node, { queryId: "recorded" }));
  // Everything the site opens from here on reads and writes through the recording builder.
  const recorded: Database = { ...database, db: plain.withPlugin(recorder) };
  const config = loadConfig(
    { NODE_ENV: "test", LOG_LEVEL: "silent", TEST_FIXTURES: "1", DATA_DIR: "test-results/data" },
    { clientDir },
  );
  const logger = pino({ level: "silent" });
  const services = await openServices(config, logger, recorded);
  const created = await createApp(config, { logger, services });
  created.readiness.markReady();
  app = created.app;
}, 60_000);

afterAll(async () => handle?.dispose());

/** The tables (schema-qualified names dropped) a read statement scans, by its generic plan. */
async function tablesRead(statement: string): Promise<string[]> {
  if (!/^\s*(select|with)\b/i.test(statement)) return [];
  const { rows } = await sql<{
    "QUERY PLAN": unknown;
  }>`explain (generic_plan, format json) ${sql.raw(statement)}`.execute(database.db);
  const found = new Set<string>();
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        if (key === "Relation Name" && typeof inner === "string") found.add(inner);
        else walk(inner);
      }
    }
  };
  walk(rows[0]!["QUERY PLAN"]);
  return [...found];
}

/** The tables whose row changes are told by a trigger (migration 019's `<table>_catalogue_rows`), in this test's schema. */
async function watchedTables(): Promise<Set<string>> {
  const { rows } = await sql<{ table: string }>`
    select c.relname as table from pg_trigger t join pg_class c on c.oid = t.tgrelid
    where t.tgfoid = 'notify_catalogue_changed'::regproc and t.tgname like '%\\_catalogue\\_rows'
      and c.relnamespace = current_schema()::regnamespace`.execute(database.db);
  return new Set(rows.map((row) => row.table));
}

/**
 * Renders each page anonymously and answers, for the pages the page cache would keep, the tables
 * they read that no trigger watches (each with the first page that read it), and how many pages
 * were kept.
 */
async function unwatchedReads(
  urls: readonly string[],
): Promise<{ unwatched: string[]; kept: number; read: Set<string> }> {
  const watched = await watchedTables();
  const firstReader = new Map<string, string>();
  let kept = 0;
  for (const url of urls) {
    recorder.statements.length = 0;
    recorder.recording = true;
    const res = await request(app).get(url).set("User-Agent", BROWSER_UA);
    recorder.recording = false;
    const cacheable =
      res.status === 200 &&
      res.headers["cache-control"] === "no-cache" &&
      typeof res.headers.etag === "string" &&
      res.headers["set-cookie"] === undefined;
    if (!cacheable) continue;
    kept++;
    for (const statement of recorder.statements) {
      for (const table of await tablesRead(statement)) if (!firstReader.has(table)) firstReader.set(table, url);
    }
  }
  const unwatched = [...firstReader]
    .filter(([table]) => !watched.has(table))
    .map(([table, url]) => `${table} (read by ${url})`);
  return { unwatched, kept, read: new Set(firstReader.keys()) };
}

describe("every table a cached public page reads tells the page cache when it changes", () => {
  it("has a change trigger for each of them", async (context) => {
    if (!explainable) context.skip();
    // The trigger list is not empty: a query that finds nothing would pass every page.
    expect((await watchedTables()).has("courses")).toBe(true);
    const { unwatched, kept, read } = await unwatchedReads(publicPages);
    // The walk reached the pages and their reads: most public pages are cacheable and read the catalogue.
    expect(kept).toBeGreaterThan(20);
    expect(read.has("courses")).toBe(true);
    expect(unwatched, "public pages read these tables, which have no catalogue_changed trigger").toEqual([]);
  }, 120_000);

  it("names a table a public page reads once its trigger is gone", async (context) => {
    if (!explainable) context.skip();
    await sql`drop trigger books_catalogue_rows on books`.execute(database.db);
    // A book the walk above did not open, so no short-lived copy of its answer is in memory.
    const { unwatched, kept } = await unwatchedReads(["/books/13"]);
    expect(kept).toBe(1);
    expect(unwatched).toEqual(["books (read by /books/13)"]);
  });
});
