import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { get } from "node:http";
import { afterEach, describe, expect, it } from "vitest";

const entry = `${process.env.DIST_DIR ?? "dist"}/server/main.js`;

function startServer(port: number, extraEnv: Record<string, string> = {}): Promise<ChildProcess> {
  if (!existsSync(entry)) throw new Error("No server build: run `npm run build` first.");
  const child = spawn(process.execPath, [entry], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DEPLOY_ENV: "test",
      TEST_FIXTURES: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      DATA_DIR: "test-results/shutdown-data",
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      if (d.toString().includes("listening")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`server exited early (${code})`)));
  });
}

let child: ChildProcess | undefined;
afterEach(() => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
});

describe("graceful shutdown", () => {
  it("SIGTERM lets an in-flight stream finish, then exits 0", async () => {
    const port = 3300 + Math.floor(Math.random() * 500);
    child = await startServer(port);
    const exited = new Promise<number | null>((r) => child!.once("exit", (code) => r(code)));
    const body = await new Promise<string>((resolve, reject) => {
      get(`http://127.0.0.1:${port}/__test/stream?ms=1500`, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          // The shell has arrived: stop the server while the slow part is still pending.
          if (!text) child!.kill("SIGTERM");
          text += chunk;
        });
        res.on("end", () => resolve(text));
        res.on("error", reject);
      }).on("error", reject);
    });
    expect(body).toContain("正在加载慢内容");
    expect(body).toContain("慢内容已到达");
    expect(body).toContain("</html>");
    expect(await exited).toBe(0);
  });

  it("refuses new connections once draining and exits 0 when idle", async () => {
    const port = 3900 + Math.floor(Math.random() * 500);
    child = await startServer(port);
    const exited = new Promise<number | null>((r) => child!.once("exit", (code) => r(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    await expect(
      new Promise((resolve, reject) => get(`http://127.0.0.1:${port}/healthz`, resolve).on("error", reject)),
    ).rejects.toThrow(/ECONNREFUSED/);
  });

  it("during the drain delay readiness is 503 while pages are still served, then it exits 0", async () => {
    const port = 4400 + Math.floor(Math.random() * 500);
    child = await startServer(port, { DRAIN_DELAY_MS: "1500" });
    const exited = new Promise<number | null>((r) => child!.once("exit", (code) => r(code)));
    const status = (path: string) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) =>
        get({ host: "127.0.0.1", port, path, agent: false }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        }).on("error", reject),
      );
    expect((await status("/readyz")).status).toBe(200);
    child.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 300));
    expect((await status("/readyz")).status).toBe(503);
    expect((await status("/healthz")).status).toBe(200);
    const page = await status("/about");
    expect(page.status).toBe(200);
    expect(page.connection).toBe("close");
    expect(await exited).toBe(0);
  });
});
