/**
 * The first start on an empty embedded data folder runs migrations and writes the demo data in a
 * short-lived process of its own, so that the node then idles at the memory of a later start
 * (services.ts, prepareFirstStart). Should that process fail (an exit code, or a signal such as a
 * native library's crash at exit), the node says so and does the same work itself: opening the
 * database migrates and writes whatever demo data is missing, so nothing is lost but memory.
 */
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import type { Logger } from "pino";

/** The argument of the short-lived process that creates the embedded database. */
export const FIRST_START = "--first-start";

type Spawn = (
  command: string,
  args: string[],
  options: { stdio: "inherit" },
) => Pick<SpawnSyncReturns<Buffer>, "status" | "signal" | "error">;

/** Runs the first start's process; true when it finished its work, false (logged) when not. */
export function firstStartInChild(
  entry: string,
  logger: Pick<Logger, "info" | "error">,
  spawn: Spawn = spawnSync,
): boolean {
  logger.info("first start: creating the embedded database with the demo data");
  const child = spawn(process.execPath, [entry, FIRST_START], { stdio: "inherit" });
  if (child.status === 0) return true;
  logger.error(
    { status: child.status, signal: child.signal, err: child.error },
    "first start: the database preparation process failed; preparing the database in this process instead",
  );
  return false;
}
