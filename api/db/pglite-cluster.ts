/**
 * A migrated PGlite database cluster, made once and kept as an archive, so that a new embedded
 * database is unpacked (about a second) instead of made by initdb and migrated (5–6 s of
 * WebAssembly on this project's machine, half of a first start). The build writes one next to the
 * server bundle (dist/pglite-cluster.tar.gz); the test suite makes one for its in-memory databases.
 *
 * An archive is used only with the stamp it was written with: the same PGlite release, start
 * parameters and migrations. Anything else (an upgrade, an edited or new migration, a missing or
 * unreadable stamp) makes the database by initdb and migrations as before.
 *
 * Only node's own modules are imported here at the top: the server's entry reads the file name.
 */
import { createHash } from "node:crypto";
import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** The archive's file name in the build's output folder. */
export const CLUSTER_ARCHIVE_NAME = "pglite-cluster.tar.gz";

export interface ClusterStamp {
  pglite: string;
  startParams: string[];
  /** SHA-256 of the migrations the cluster holds (their versions, names and SQL). */
  migrations: string;
}

const stampFile = (archive: string) => `${archive}.json`;

/** The installed PGlite release (its package.json, found beside its entry file). */
export function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === "@electric-sql/pglite" && pkg.version) return pkg.version;
    } catch {
      // Not this folder: look one up.
    }
  }
  throw new Error("the installed PGlite's version was not found");
}

export function clusterStamp(
  startParams: readonly string[],
  migrations: readonly { version: number; name: string; up: string }[],
): ClusterStamp {
  const hash = createHash("sha256");
  for (const m of migrations) hash.update(`${m.version}\0${m.name}\0${m.up}\0`);
  return { pglite: pgliteVersion(), startParams: [...startParams], migrations: hash.digest("hex") };
}

function stampOf(file: string): ClusterStamp | undefined {
  try {
    const stamp = JSON.parse(readFileSync(stampFile(file), "utf8")) as Partial<ClusterStamp>;
    if (typeof stamp.pglite !== "string" || typeof stamp.migrations !== "string" || !Array.isArray(stamp.startParams))
      return undefined;
    return stamp as ClusterStamp;
  } catch {
    return undefined;
  }
}

const sameStamp = (a: ClusterStamp, b: ClusterStamp) =>
  a.pglite === b.pglite &&
  a.migrations === b.migrations &&
  a.startParams.length === b.startParams.length &&
  a.startParams.every((p, i) => p === b.startParams[i]);

/** The archive at `file` as PGlite's `loadDataDir` takes it, or undefined when there is none or its stamp differs. */
export function readClusterArchive(file: string, stamp: ClusterStamp): Blob | undefined {
  const written = stampOf(file);
  if (!written || !sameStamp(written, stamp)) return undefined;
  try {
    const bytes = readFileSync(file);
    return bytes.length > 0 ? new Blob([bytes]) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `file` holds an archive with this stamp (the build does not make it again). */
export function clusterArchiveIsCurrent(file: string, stamp: ClusterStamp): boolean {
  const written = stampOf(file);
  return (
    written !== undefined && sameStamp(written, stamp) && (statSync(file, { throwIfNoEntry: false })?.size ?? 0) > 0
  );
}

/** Writes the archive, then its stamp, each whole or not at all. */
export function writeClusterArchive(file: string, stamp: ClusterStamp, archive: Uint8Array): void {
  writeFileSync(`${file}.partial`, archive);
  renameSync(`${file}.partial`, file);
  writeFileSync(`${stampFile(file)}.partial`, JSON.stringify(stamp));
  renameSync(`${stampFile(file)}.partial`, stampFile(file));
}
