import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { currentClusterStamp } from "../api/db/migrate";
import { writeClusterArchive } from "../api/db/pglite-cluster";
import { loadConfig } from "./config";
import { databaseOptions } from "./database-options";

const tmp = mkdtempSync(path.join(tmpdir(), "mochi-dbopts-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const archive = path.join(tmp, "cluster.tar.gz");
writeClusterArchive(archive, currentClusterStamp(), new Uint8Array([9]));

function logged() {
  const lines: string[] = [];
  return { lines, logger: { info: (msg: string) => lines.push(msg) } as never };
}

describe("databaseOptions", () => {
  it("unpacks a new embedded database from the build's current cluster, and says so", () => {
    const { lines, logger } = logged();
    const config = loadConfig({ DATA_DIR: path.join(tmp, "new") }, { clusterArchive: archive });
    expect(databaseOptions(config, logger).clusterArchive?.size).toBe(1);
    expect(lines).toEqual(["new embedded database: unpacked from the build's migrated cluster"]);
  });

  it("makes it by initdb where the build has no current archive", () => {
    const { lines, logger } = logged();
    const config = loadConfig({ DATA_DIR: path.join(tmp, "new") }, { clusterArchive: path.join(tmp, "none.tar.gz") });
    expect(databaseOptions(config, logger).clusterArchive).toBeUndefined();
    expect(lines).toEqual(["new embedded database: made by initdb (the build has no current cluster archive)"]);
  });

  it("leaves an existing embedded database and PostgreSQL alone", () => {
    const existing = path.join(tmp, "existing");
    mkdirSync(path.join(existing, "pglite"), { recursive: true });
    writeFileSync(path.join(existing, "pglite", "PG_VERSION"), "17\n");
    const { lines, logger } = logged();
    expect(
      databaseOptions(loadConfig({ DATA_DIR: existing }, { clusterArchive: archive }), logger).clusterArchive,
    ).toBeUndefined();
    const pg = loadConfig(
      { DATA_DIR: path.join(tmp, "new"), DATABASE_URL: "postgres://127.0.0.1:5432/x" },
      { clusterArchive: archive },
    );
    const options = databaseOptions(pg, logger);
    expect(options.clusterArchive).toBeUndefined();
    expect(options.url).toBe("postgres://127.0.0.1:5432/x");
    expect(lines).toEqual([]);
  });
});
