import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3210);
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const dist = process.env.DIST_DIR ?? "dist";

/**
 * Browser tests against the production build, in Debian's Chromium (Playwright's own browser
 * download is not available here). The server runs with the test fixtures enabled.
 */
export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: "test-results/playwright.json" }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
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
  webServer: {
    command: `node ${dist}/server/main.js`,
    url: `http://127.0.0.1:${port}/readyz`,
    reuseExistingServer: false,
    // A fresh data folder is migrated and seeded at start: allow for a busy machine.
    timeout: 180_000,
    env: {
      NODE_ENV: "production",
      DEPLOY_ENV: "test",
      TEST_FIXTURES: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      // A fresh database per run and per port (npm test clears test-results first).
      DATA_DIR: `test-results/e2e-data-${port}-${Date.now()}`,
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      // Every browser test signs its people in with SMS codes from 127.0.0.1: more than a day's
      // worth for one real address. The per-number caps and cooldown stay as they are.
      OTP_DAILY_PER_IP: "1000",
    },
  },
});
