import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, inject, it } from "vitest";
import { openDatabase, PGLITE_START_PARAMS } from "./database";
import { currentClusterStamp, migrate } from "./migrate";
import { migrations } from "./migrations";
import { clusterStamp, pgliteVersion, readClusterArchive, writeClusterArchive } from "./pglite-cluster";

const tmp = mkdtempSync(path.join(tmpdir(), "mochi-cluster-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("a cluster archive's stamp", () => {
  const file = path.join(tmp, "a.tar.gz");
  const stamp = currentClusterStamp();
  writeClusterArchive(file, stamp, new Uint8Array([1, 2, 3]));

  it("names the installed PGlite, the start parameters and the migrations", () => {
    expect(stamp.pglite).toMatch(/^\d+\.\d+\.\d+/);
    expect(stamp.pglite).toBe(pgliteVersion());
    expect(stamp.startParams).toEqual(PGLITE_START_PARAMS);
    expect(stamp.migrations).toMatch(/^[0-9a-f]{64}$/);
  });

  it("lets the archive be read with the same stamp only", async () => {
    expect(readClusterArchive(file, stamp)?.size).toBe(3);
    // Another migration, an edited one, other start parameters, another PGlite release.
    const more = [...migrations, { version: 999, name: "next", up: "select 1" }];
    expect(readClusterArchive(file, clusterStamp(PGLITE_START_PARAMS, more))).toBeUndefined();
    const edited = migrations.map((m, i) => (i === 0 ? { ...m, up: `${m.up}\n-- edited` } : m));
    expect(readClusterArchive(file, clusterStamp(PGLITE_START_PARAMS, edited))).toBeUndefined();
    expect(
      readClusterArchive(file, clusterStamp([...PGLITE_START_PARAMS, "-c", "work_mem=8MB"], migrations)),
    ).toBeUndefined();
    expect(readClusterArchive(file, { ...stamp, pglite: "0.0.1" })).toBeUndefined();
  });

  it("ignores an archive without a readable stamp", () => {
    const bare = path.join(tmp, "bare.tar.gz");
    writeFileSync(bare, "x");
    expect(readClusterArchive(bare, stamp)).toBeUndefined();
    writeFileSync(`${bare}.json`, "{not json");
    expect(readClusterArchive(bare, stamp)).toBeUndefined();
    writeFileSync(`${bare}.json`, JSON.stringify({ pglite: stamp.pglite }));
    expect(readClusterArchive(bare, stamp)).toBeUndefined();
    expect(readClusterArchive(path.join(tmp, "missing.tar.gz"), stamp)).toBeUndefined();
  });
});

describe.skipIf(!inject("pgliteCluster"))("a new data folder from the migrated cluster", () => {
  it("is migrated from its first open, and keeps what is written to it", async () => {
    const archive = readClusterArchive(inject("pgliteCluster"), currentClusterStamp());
    expect(archive).toBeDefined();
    const dataDir = path.join(tmp, "data");
    const first = await openDatabase({ dataDir, clusterArchive: archive });
    try {
      const applied = await sql<{ n: number }>`select count(*)::int as n from schema_migrations`.execute(first.db);
      expect(applied.rows[0]!.n).toBe(migrations.length);
      expect(await migrate(first)).toEqual([]);
      await first.db.insertInto("users").values({ phone: "13800009999", nickname: "甲" }).execute();
    } finally {
      await first.close();
    }
    // Opened again, the archive is not unpacked over it (that would lose the row).
    const again = await openDatabase({ dataDir, clusterArchive: archive });
    try {
      const row = await again.db.selectFrom("users").select("nickname").where("phone", "=", "13800009999").execute();
      expect(row).toEqual([{ nickname: "甲" }]);
    } finally {
      await again.close();
    }
  });
});
