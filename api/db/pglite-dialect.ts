/**
 * Kysely on PGlite. PGlite is one PostgreSQL session in this process, so connections are
 * handed out one at a time: a transaction owns the session until it commits or rolls back.
 */
import type { PGlite } from "@electric-sql/pglite";
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from "kysely";

class PgliteConnection implements DatabaseConnection {
  constructor(private readonly pg: PGlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // Raw SQL without parameters may hold several statements (migrations): the simple protocol.
    if (query.parameters.length === 0 && query.query.kind === "RawNode") {
      const results = await this.pg.exec(query.sql);
      return { rows: (results[results.length - 1]?.rows ?? []) as R[] };
    }
    const result = await this.pg.query<R>(query.sql, query.parameters as unknown[]);
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      ...(affected !== undefined && query.query.kind !== "SelectQueryNode"
        ? { numAffectedRows: BigInt(affected) }
        : {}),
    };
  }

  // Not used by the application; Kysely requires the method.
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streaming queries are not supported on PGlite");
  }
}

class PgliteDriver implements Driver {
  private readonly connection: PgliteConnection;
  private queue: Promise<void> = Promise.resolve();
  private release: (() => void) | null = null;

  constructor(private readonly pg: PGlite) {
    this.connection = new PgliteConnection(pg);
  }

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    this.release = release;
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const level = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : "";
    await connection.executeQuery(CompiledQuery.raw(`begin${level}`));
  }

  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  async releaseConnection() {
    const release = this.release;
    this.release = null;
    release?.();
  }

  async destroy() {
    await this.pg.close();
  }
}

export class PgliteDialect implements Dialect {
  constructor(private readonly pg: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver() {
    return new PgliteDriver(this.pg);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}
