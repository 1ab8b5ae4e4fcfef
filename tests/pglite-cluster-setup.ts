/**
 * Once per test run: a migrated PGlite cluster in a temporary folder, which every test file's
 * in-memory database is unpacked from (tests/db.ts) instead of being made by initdb and migrated.
 * Nothing to do when the tests run on PostgreSQL.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migratedCluster } from "../api/db/migrate";
import { CLUSTER_ARCHIVE_NAME, writeClusterArchive } from "../api/db/pglite-cluster";

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated cluster archive, or "" on PostgreSQL. */
    pgliteCluster: string;
  }
}

export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide("pgliteCluster", "");
    return;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "mochi-test-cluster-"));
  const file = path.join(dir, CLUSTER_ARCHIVE_NAME);
  const { archive, stamp } = await migratedCluster();
  writeClusterArchive(file, stamp, archive);
  project.provide("pgliteCluster", file);
  return () => rmSync(dir, { recursive: true, force: true });
}
