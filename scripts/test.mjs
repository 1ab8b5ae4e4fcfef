#!/usr/bin/env node
// `npm test`: every test. Builds the site, runs the unit and integration suites (vitest),
// then the browser suite (Playwright in Debian's Chromium), and prints one closing line.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const reports = path.join(root, "test-results");
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  console.error(
    `Chromium was not found at ${chromium}.\n` +
      "The browser tests drive Debian's Chromium. Install it with:\n" +
      "  sudo apt-get install chromium fonts-noto-cjk\n" +
      "or point CHROMIUM_PATH at another Chromium or Chrome binary.",
  );
  process.exit(1);
}

function run(label, cmd, args, env = {}) {
  console.log(`\n▶ ${label}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return r.status ?? 1;
}

if (run("build", "npx", ["vite", "build", "--app", "--logLevel", "warn"]) !== 0) process.exit(1);
const unit = run("unit and integration tests (vitest)", "npx", [
  "vitest",
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${path.join(reports, "vitest.json")}`,
]);
const e2e = run("browser tests (Playwright, Chromium)", "npx", ["playwright", "test"], { CHROMIUM_PATH: chromium });

/** A JSON report, or null when the run wrote none (or half of one). */
function report(name) {
  try {
    return JSON.parse(readFileSync(path.join(reports, name), "utf8"));
  } catch {
    return null;
  }
}
const vitestReport = report("vitest.json");
const playwrightReport = report("playwright.json");
const v = vitestReport && {
  passed: vitestReport.numPassedTests,
  failed: vitestReport.numFailedTests,
  skipped: vitestReport.numPendingTests + (vitestReport.numTodoTests ?? 0),
};
const p = playwrightReport && {
  passed: playwrightReport.stats.expected + playwrightReport.stats.flaky,
  failed: playwrightReport.stats.unexpected,
  skipped: playwrightReport.stats.skipped,
};
// The names of failed tests come last, beside the closing line, where a log's tail shows them.
const failedNames = [
  ...(vitestReport?.testResults ?? []).flatMap((file) =>
    file.assertionResults
      .filter((t) => t.status === "failed")
      .map((t) => `vitest · ${path.relative(root, file.name)} › ${t.fullName}${firstLine(t.failureMessages)}`)
      .concat(
        file.status === "failed" && file.assertionResults.length === 0
          ? [`vitest · ${path.relative(root, file.name)} › ${file.message || "the file failed to run"}`]
          : [],
      ),
  ),
  ...playwrightFailures(playwrightReport?.suites ?? [], []),
];
function firstLine(messages) {
  const line = messages?.[0]?.split("\n")[0]?.trim();
  return line ? `\n      ${line.slice(0, 240)}` : "";
}
function playwrightFailures(suites, trail) {
  return suites.flatMap((suite) => {
    const here = suite.file === suite.title ? trail : [...trail, suite.title];
    return [
      ...(suite.specs ?? [])
        .filter((spec) => spec.tests?.some((t) => t.status === "unexpected"))
        .map((spec) => `playwright · ${spec.file}:${spec.line} › ${[...here, spec.title].join(" › ")}`),
      ...playwrightFailures(suite.suites ?? [], here),
    ];
  });
}
if (failedNames.length > 0) console.log(`\nfailed:\n${failedNames.map((n) => `  ✗ ${n}`).join("\n")}`);
const passed = (v?.passed ?? 0) + (p?.passed ?? 0);
const failed = (v?.failed ?? 0) + (p?.failed ?? 0) + (v ? 0 : unit === 0 ? 0 : 1) + (p ? 0 : e2e === 0 ? 0 : 1);
const skipped = (v?.skipped ?? 0) + (p?.skipped ?? 0);
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(unit === 0 && e2e === 0 ? 0 : 1);
