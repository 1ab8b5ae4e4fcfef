/**
 * How the browser suite's spec files are dealt to its servers (playwright.config.ts). Each group
 * runs one file at a time against a server and database of its own, so the suite lasts as long as
 * its slowest group. Files are dealt longest first to the group with the least time so far; a
 * file's time is its recorded time (tests/e2e/durations.json, written by
 * `node scripts/e2e-durations.mjs` after a run), or for a file not recorded yet an estimate from
 * its size at the recorded files' seconds per byte.
 */
export type SpecFile = { file: string; bytes: number };

export function specGroups(
  files: readonly SpecFile[],
  recorded: Readonly<Record<string, number>>,
  servers: number,
): string[][] {
  const known = files.filter((f) => recorded[f.file] !== undefined);
  const knownBytes = known.reduce((sum, f) => sum + f.bytes, 0);
  const knownSeconds = known.reduce((sum, f) => sum + recorded[f.file]!, 0);
  // With nothing recorded, a byte counts as a second: the order by size is all that matters then.
  const secondsPerByte = knownBytes > 0 && knownSeconds > 0 ? knownSeconds / knownBytes : 1;
  const weighed = files
    .map((f) => ({ file: f.file, seconds: recorded[f.file] ?? f.bytes * secondsPerByte }))
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file));
  const groups = Array.from({ length: Math.max(1, servers) }, () => ({ files: [] as string[], seconds: 0 }));
  for (const { file, seconds } of weighed) {
    const lightest = groups.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    lightest.files.push(file);
    lightest.seconds += seconds;
  }
  return groups.map((g) => g.files);
}
