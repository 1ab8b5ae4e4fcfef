import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { ANDROID_UA } from "./tests/e2e/phone-layout";
import { specGroups } from "./tests/e2e/spec-groups";

const port = Number(process.env.E2E_PORT ?? 3210);
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const dist = process.env.DIST_DIR ?? "dist";
const testDir = "tests/e2e";
const startedAt = Date.now();

/**
 * The spec files run in `E2E_SERVERS` groups at once (2 by default; 1 for one server), each group
 * against a server and database of its own on its own port, so no spec sees another group's data.
 * Files are dealt to the groups by their recorded running time (tests/e2e/spec-groups.ts).
 */
const servers = Math.max(1, Number(process.env.E2E_SERVERS ?? 2));
const durations = JSON.parse(readFileSync(path.join(testDir, "durations.json"), "utf8")) as Record<string, number>;
/** The phone's spec files (`phone-*.spec.ts`) run in the phone project, on a server of their own. */
const isPhoneSpec = (f: string) => f.startsWith("phone-");
const groups = specGroups(
  readdirSync(testDir)
    .filter((f) => f.endsWith(".spec.ts") && !isPhoneSpec(f))
    .map((file) => ({ file, bytes: statSync(path.join(testDir, file)).size })),
  durations,
  servers,
);

/**
 * Browser tests against the production build, in Debian's Chromium (Playwright's own browser
 * download is not available here). The server runs with the test fixtures enabled.
 */
export default defineConfig({
  testDir,
  outputDir: "test-results/e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: servers,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  use: {
    locale: "zh-CN",
    timezoneId: "Asia/Shanghai",
    viewport: { width: 1280, height: 800 },
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    ...groups.map((files, i) => ({
      name: `server-${i + 1}`,
      testMatch: files.map((f) => `**/${f}`),
      // One file at a time per server: the files of a group share its database, and one that
      // changes the catalogue (an operator publishing a course) must not run beside one that counts
      // it. Without this a worker that finished its own group took the other group's next file.
      workers: 1,
      use: { baseURL: `http://127.0.0.1:${port + i}` },
    })),
    {
      // A phone (issue "Phones"): 390×844, touch, Chrome on Android. Its files share the workers
      // with the groups above (no more at once) and a server and database of their own.
      name: "phone",
      testMatch: "**/phone-*.spec.ts",
      workers: 1,
      use: {
        baseURL: `http://127.0.0.1:${port + groups.length}`,
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 2,
        isMobile: true,
        hasTouch: true,
        userAgent: ANDROID_UA,
      },
    },
  ],
  webServer: [...groups.map((_, i) => serverOn(port + i)), serverOn(port + groups.length)],
});

function serverOn(p: number) {
  return {
    command: `node ${dist}/server/main.js`,
    url: `http://127.0.0.1:${p}/readyz`,
    reuseExistingServer: false,
    // A fresh data folder is migrated and seeded at start: allow for a busy machine.
    timeout: 180_000,
    env: {
      NODE_ENV: "production",
      DEPLOY_ENV: "test",
      TEST_FIXTURES: "1",
      PORT: String(p),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      // A fresh database per run and per port (npm test clears test-results first).
      DATA_DIR: `test-results/e2e-data-${p}-${startedAt}`,
      PUBLIC_ORIGIN: `http://127.0.0.1:${p}`,
      // Every browser test signs its people in with SMS codes from 127.0.0.1: more than a day's
      // worth for one real address. The per-number caps and cooldown stay as they are.
      OTP_DAILY_PER_IP: "1000",
    },
  };
}
