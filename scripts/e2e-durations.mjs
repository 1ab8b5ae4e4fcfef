#!/usr/bin/env node
// Records how long each browser spec file took in the last run (test-results/playwright.json, as
// written by `npm test` or `npx playwright test`) into tests/e2e/durations.json, which
// playwright.config.ts uses to deal the files to its servers evenly. Run it after a full run on a
// machine like CI's; files the run did not include keep their recorded time, and files that no
// longer exist are dropped.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const reportPath = path.join(root, "test-results", "playwright.json");
const durationsPath = path.join(root, "tests", "e2e", "durations.json");
if (!existsSync(reportPath)) {
  console.error(`No report at ${path.relative(root, reportPath)}: run the browser tests first.`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(reportPath, "utf8"));

/** Milliseconds of every result under a suite, nested suites included. */
function milliseconds(suite) {
  const own = (suite.specs ?? []).flatMap((spec) =>
    spec.tests.flatMap((test) => test.results.map((result) => result.duration)),
  );
  return own.reduce((a, b) => a + b, 0) + (suite.suites ?? []).reduce((sum, s) => sum + milliseconds(s), 0);
}

const measured = {};
for (const suite of report.suites ?? []) {
  const file = path.basename(suite.file);
  measured[file] = (measured[file] ?? 0) + milliseconds(suite);
}
const recorded = existsSync(durationsPath) ? JSON.parse(readFileSync(durationsPath, "utf8")) : {};
// Files removed since keep no entry.
const merged = Object.fromEntries(
  Object.entries(recorded).filter(([file]) => existsSync(path.join(root, "tests", "e2e", file))),
);
for (const [file, ms] of Object.entries(measured)) merged[file] = Math.round(ms / 1000);
const sorted = Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)));
writeFileSync(durationsPath, `${JSON.stringify(sorted, null, 2)}\n`);
const total = Object.values(measured).reduce((a, b) => a + b, 0) / 1000;
console.log(
  `${Object.keys(measured).length} files, ${Math.round(total)} s in all, written to tests/e2e/durations.json`,
);
