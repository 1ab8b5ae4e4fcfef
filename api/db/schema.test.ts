/**
 * The table types in schema.ts are written by hand beside the SQL migrations: this test
 * migrates a fresh database and holds every table, column and nullability against the types,
 * so a migration without its type (or a type without its column) fails here, not in production.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { testDatabase } from "../../tests/db";

const here = path.dirname(fileURLToPath(import.meta.url));
const handle = await testDatabase();
afterAll(() => handle.dispose());

interface DeclaredColumn {
  /** null where the read type is `unknown`, which admits both. */
  nullable: boolean | null;
}

/** Type aliases of schema.ts whose read side may be null (e.g. NullableTimestamp). */
function nullableAliases(file: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of file.statements) {
    if (ts.isTypeAliasDeclaration(statement) && /\bnull\b/.test(firstTypeArgument(statement.type, file))) {
      names.add(statement.name.text);
    }
  }
  return names;
}

/** The read type of a column: the first argument of ColumnType<…>/Generated<…>, else the type itself. */
function firstTypeArgument(type: ts.TypeNode, file: ts.SourceFile): string {
  if (ts.isTypeReferenceNode(type) && type.typeArguments?.length) {
    const name = type.typeName.getText(file);
    if (name === "ColumnType" || name === "Generated") return type.typeArguments[0]!.getText(file);
  }
  return type.getText(file);
}

function declaredTables(): Map<string, Map<string, DeclaredColumn>> {
  const source = readFileSync(path.join(here, "schema.ts"), "utf8");
  const file = ts.createSourceFile("schema.ts", source, ts.ScriptTarget.Latest, true);
  const nullable = nullableAliases(file);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  for (const statement of file.statements) {
    if (ts.isInterfaceDeclaration(statement)) interfaces.set(statement.name.text, statement);
  }
  const db = interfaces.get("DB");
  if (!db) throw new Error("schema.ts has no DB interface");
  const tables = new Map<string, Map<string, DeclaredColumn>>();
  for (const member of db.members) {
    if (!ts.isPropertySignature(member) || !member.type) continue;
    const tableName = member.name.getText(file);
    const typeName = member.type.getText(file);
    const table = interfaces.get(typeName);
    if (!table) throw new Error(`schema.ts: DB.${tableName} names ${typeName}, which is not an interface there`);
    const columns = new Map<string, DeclaredColumn>();
    for (const column of table.members) {
      if (!ts.isPropertySignature(column) || !column.type) continue;
      const read = firstTypeArgument(column.type, file);
      columns.set(column.name.getText(file), {
        nullable: read === "unknown" ? null : /\bnull\b/.test(read) || nullable.has(read),
      });
    }
    tables.set(tableName, columns);
  }
  return tables;
}

describe(`schema.ts agrees with the migrations (${handle.database.kind})`, () => {
  it("declares every table and column the migrations create, with the same nullability", async () => {
    const rows = await sql<{ table_name: string; column_name: string; is_nullable: "YES" | "NO" }>`
      select c.table_name, c.column_name, c.is_nullable
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
        and c.table_name <> 'schema_migrations'
      order by c.table_name, c.ordinal_position`.execute(handle.database.db);
    const actual = new Map<string, Map<string, DeclaredColumn>>();
    for (const row of rows.rows) {
      const table = actual.get(row.table_name) ?? new Map<string, DeclaredColumn>();
      table.set(row.column_name, { nullable: row.is_nullable === "YES" });
      actual.set(row.table_name, table);
    }
    const declared = declaredTables();

    expect([...declared.keys()].sort()).toEqual([...actual.keys()].sort());
    const mismatches: string[] = [];
    for (const [tableName, columns] of actual) {
      const types = declared.get(tableName);
      if (!types) continue;
      for (const [column, { nullable }] of columns) {
        const type = types.get(column);
        if (!type) mismatches.push(`${tableName}.${column}: in the database, not in schema.ts`);
        else if (type.nullable !== null && type.nullable !== nullable)
          mismatches.push(`${tableName}.${column}: ${nullable ? "nullable" : "not null"} in the database`);
      }
      for (const column of types.keys()) {
        if (!columns.has(column)) mismatches.push(`${tableName}.${column}: in schema.ts, not in the database`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});
