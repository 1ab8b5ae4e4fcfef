/**
 * A build step, not part of the running site: writes the migrated PGlite cluster next to the
 * server bundle (decision 053). vite.config.ts imports this entry from the bundle it has just
 * written, so the archive is made by the very code that will unpack it.
 */
import path from "node:path";
import {
  CLUSTER_ARCHIVE_NAME,
  clusterArchiveIsCurrent,
  currentClusterStamp,
  migratedCluster,
  writeClusterArchive,
} from "../api/index";

/** Writes the archive into the build's folder unless a current one is there; the file it wrote, or null. */
export async function writeBuildCluster(distDir: string): Promise<string | null> {
  const file = path.resolve(distDir, CLUSTER_ARCHIVE_NAME);
  if (clusterArchiveIsCurrent(file, currentClusterStamp())) return null;
  const { archive, stamp } = await migratedCluster();
  writeClusterArchive(file, stamp, archive);
  return file;
}
