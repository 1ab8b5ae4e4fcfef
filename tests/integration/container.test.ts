/**
 * The container image without Docker: this machine has the docker CLI but no engine, so the test
 * reads the Dockerfile, checks its invariants, then rebuilds the final stage by hand in a clean
 * temporary folder — only what that stage COPYs (taken from the already-built dist/), a
 * production-only `npm ci` — and runs its CMD with its ENV, probes it with its own HEALTHCHECK and
 * stops it with SIGTERM, as `docker stop` would.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
/** The build under test: dist/, or DIST_DIR when builds run side by side. */
const builtDist = process.env.DIST_DIR ?? "dist";
const fromBuild = (relative: string) =>
  path.join(repoRoot, relative === "dist" || relative.startsWith("dist/") ? builtDist + relative.slice(4) : relative);

// ---------------------------------------------------------------------------------------------
// A small Dockerfile reader: enough for the instructions this project uses.

interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

interface Stage {
  base: string;
  name?: string;
  instructions: Instruction[];
}

function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text.split(/\r?\n/);
  let pending = "";
  let startLine = 0;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? "";
    const trimmed = raw.trim();
    // Comments and blank lines may appear inside a continued instruction; they are dropped.
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    if (!pending) startLine = i + 1;
    if (trimmed.endsWith("\\")) {
      pending += `${trimmed.slice(0, -1)} `;
      continue;
    }
    const full = (pending + trimmed).trim();
    pending = "";
    const match = /^(\S+)\s*(.*)$/s.exec(full);
    if (!match) continue;
    const keyword = (match[1] ?? "").toUpperCase();
    const args = (match[2] ?? "").trim();
    if (keyword === "FROM") {
      const parts = args.split(/\s+/).filter((p) => !p.startsWith("--"));
      const base = parts[0] ?? "";
      const asIndex = parts.findIndex((p) => p.toUpperCase() === "AS");
      stages.push({ base, name: asIndex >= 0 ? parts[asIndex + 1] : undefined, instructions: [] });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`Dockerfile line ${startLine}: ${keyword} before the first FROM`);
    stage.instructions.push({ keyword, args, line: startLine });
  }
  if (pending) throw new Error("Dockerfile ends inside a continued line");
  return stages;
}

/** Splits on whitespace, honouring "double" and 'single' quotes anywhere in a word (KEY="a b"). */
function words(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:[^\s"']+|"(?:[^"\\]|\\.)*"|'[^']*')+/g)) {
    out.push(
      m[0].replace(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g, (_all, dq: string | undefined, sq: string | undefined) =>
        dq !== undefined ? dq.replace(/\\(.)/g, "$1") : (sq ?? ""),
      ),
    );
  }
  return out;
}

/** Leading `--flag=value` options, then the rest. */
function flags(args: string): { options: Map<string, string>; rest: string } {
  const options = new Map<string, string>();
  let rest = args;
  for (let m = /^--([\w-]+)(?:=(\S*))?\s*/.exec(rest); m; m = /^--([\w-]+)(?:=(\S*))?\s*/.exec(rest)) {
    options.set(m[1] ?? "", m[2] ?? "");
    rest = rest.slice(m[0].length);
  }
  return { options, rest: rest.trim() };
}

/** A command in exec form (JSON array) or shell form (run by /bin/sh -c, as Docker does). */
function command(args: string): { exec: boolean; argv: string[] } {
  if (args.startsWith("[")) {
    const parsed: unknown = JSON.parse(args);
    if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === "string"))
      throw new Error(`bad exec form: ${args}`);
    return { exec: true, argv: parsed };
  }
  return { exec: false, argv: ["/bin/sh", "-c", args] };
}

function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { keyword, args } of stage.instructions) {
    if (keyword !== "ENV") continue;
    const parts = words(args);
    if (parts.length > 0 && !(parts[0] ?? "").includes("=")) {
      // Legacy form: ENV KEY value with spaces
      env[parts[0] ?? ""] = parts.slice(1).join(" ");
      continue;
    }
    for (const part of parts) {
      const eq = part.indexOf("=");
      if (eq > 0) env[part.slice(0, eq)] = part.slice(eq + 1);
    }
  }
  return env;
}

function last(stage: Stage, keyword: string): Instruction | undefined {
  return stage.instructions.filter((i) => i.keyword === keyword).at(-1);
}

/** The stage's working directory after its WORKDIR instructions (absolute, POSIX). */
function workdirOf(stage: Stage): string {
  let dir = "/";
  for (const { keyword, args } of stage.instructions) {
    if (keyword === "WORKDIR") dir = path.posix.resolve(dir, args);
  }
  return dir;
}

// ---------------------------------------------------------------------------------------------

const dockerfileText = readFileSync(path.join(repoRoot, "Dockerfile"), "utf8");
const stages = parseDockerfile(dockerfileText);
const finalStage = stages.at(-1);
if (!finalStage) throw new Error("Dockerfile has no FROM");
const final: Stage = finalStage;
const finalEnv = envOf(final);
const healthcheck = last(final, "HEALTHCHECK");
const cmd = last(final, "CMD");
const exposedPorts = final.instructions
  .filter((i) => i.keyword === "EXPOSE")
  .flatMap((i) => words(i.args))
  .map((p) => Number.parseInt(p, 10));

describe("Dockerfile", () => {
  it("is multi-stage, every stage on the same pinned Node 24 slim image", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(final.base).toMatch(/^node:24\.\d+(\.\d+)?-[a-z]+-slim(@sha256:[0-9a-f]{64})?$/);
    for (const stage of stages) expect(stage.base).toBe(final.base);
  });

  it("builds in a stage of its own with npm ci and npm run build", () => {
    const builder = stages
      .slice(0, -1)
      .find((s) => s.instructions.some((i) => i.keyword === "RUN" && /\bnpm run build\b/.test(i.args)));
    expect(builder, "a stage that runs `npm run build`").toBeDefined();
    expect(builder!.instructions.some((i) => i.keyword === "RUN" && /\bnpm ci\b/.test(i.args))).toBe(true);
  });

  it("final stage: production env, production-only install, non-root user", () => {
    expect(finalEnv.NODE_ENV).toBe("production");
    const install = final.instructions.find((i) => i.keyword === "RUN" && /\bnpm ci\b/.test(i.args));
    expect(install, "RUN npm ci in the final stage").toBeDefined();
    expect(install!.args).toContain("--omit=dev");
    expect(install!.args).toContain("--ignore-scripts");
    expect(final.instructions.some((i) => i.keyword === "RUN" && /\bnpm run build\b/.test(i.args))).toBe(false);
    const user = last(final, "USER");
    expect(user, "a USER instruction").toBeDefined();
    expect(user!.args.split(":")[0]).not.toMatch(/^(root|0)$/);
  });

  it("final stage: CMD runs node in exec form, so node is PID 1 and gets SIGTERM", () => {
    expect(cmd, "a CMD instruction").toBeDefined();
    const { exec, argv } = command(cmd!.args);
    expect(exec).toBe(true);
    expect(argv[0]).toBe("node");
    expect(argv[1]).toBe("dist/server/main.js");
    expect(last(final, "ENTRYPOINT")).toBeUndefined();
  });

  it("final stage: DATA_DIR is a volume owned by the app user", () => {
    const dataDir = finalEnv.DATA_DIR;
    expect(dataDir).toMatch(/^\//);
    const volumes = final.instructions
      .filter((i) => i.keyword === "VOLUME")
      .flatMap((i) => (i.args.startsWith("[") ? (JSON.parse(i.args) as string[]) : words(i.args)));
    expect(volumes).toContain(dataDir);
    const user = last(final, "USER")!.args.split(":")[0];
    expect(
      final.instructions.some(
        (i) => i.keyword === "RUN" && i.args.includes(`chown ${user}`) && i.args.includes(dataDir!),
      ),
    ).toBe(true);
  });

  it("final stage: EXPOSEs the PORT it listens on and HEALTHCHECKs /healthz with node on $PORT", () => {
    expect(exposedPorts.length).toBeGreaterThan(0);
    const port = exposedPorts[0];
    expect(Number(finalEnv.PORT ?? 3000)).toBe(port);
    expect(healthcheck, "a HEALTHCHECK instruction").toBeDefined();
    const { rest } = flags(healthcheck!.args);
    expect(rest).toMatch(/^CMD\s/);
    // Shell form, so `docker run -e PORT=…` moves the probe along with the server.
    const { exec, argv } = command(rest.replace(/^CMD\s+/, ""));
    expect(exec, "HEALTHCHECK in shell form (it reads $PORT)").toBe(false);
    const script = argv[2] ?? "";
    expect(script).toMatch(/^node\s/);
    expect(script).toContain(`:\${PORT:-${port}}/healthz`);
    expect(script, "no fixed port in the probe").not.toMatch(/:\d+\/healthz/);
  });

  it(".dockerignore keeps dependencies, builds and local data out of the context", () => {
    const ignored = readFileSync(path.join(repoRoot, ".dockerignore"), "utf8")
      .split(/\r?\n/)
      .map((l) => l.trim().replace(/^\/+|\/+$/g, ""))
      .filter((l) => l && !l.startsWith("#"));
    for (const entry of ["node_modules", "dist", "data", "test-results", ".git"]) expect(ignored).toContain(entry);
  });
});

// ---------------------------------------------------------------------------------------------
// The final stage, rebuilt outside Docker.

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function run(argv: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const [file, ...args] = argv;
    if (!file) throw new Error("empty command");
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      output += d.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Where a path of the final image lands in the reproduction. */
function inImage(imageRoot: string, workdir: string, containerPath: string): string {
  const absolute = path.posix.resolve(workdir, containerPath);
  return path.join(imageRoot, ...absolute.split("/").filter(Boolean));
}

describe("final stage reproduced outside Docker", () => {
  const finalWorkdir = workdirOf(final);
  let tmp = "";
  let imageRoot = "";
  let appDir = "";
  let dataDir = "";
  let port = 0;
  let server: ChildProcess | undefined;
  let serverOutput = "";
  let exited: Promise<number | null> | undefined;

  beforeAll(async () => {
    const distServer = fromBuild("dist/server/main.js");
    const manifest = fromBuild("dist/client/.vite/manifest.json");
    if (!existsSync(distServer) || !existsSync(manifest)) {
      throw new Error(
        "No build in dist/: run `npm run build` (or `npx vite build --app`) before this test — it copies the built dist/ the way the Dockerfile's final stage does.",
      );
    }
    tmp = mkdtempSync(path.join(os.tmpdir(), "mochi-container-"));
    // Module resolution must not find this repository's node_modules from the reproduction.
    for (let dir = tmp; ; dir = path.dirname(dir)) {
      if (existsSync(path.join(dir, "node_modules")))
        throw new Error(`${dir}/node_modules would leak into the reproduction`);
      if (path.dirname(dir) === dir) break;
    }
    imageRoot = path.join(tmp, "image");
    appDir = inImage(imageRoot, "/", finalWorkdir);
    mkdirSync(appDir, { recursive: true });
    dataDir = path.join(tmp, "data");
    mkdirSync(dataDir);

    const dockerignored = new Set(
      readFileSync(path.join(repoRoot, ".dockerignore"), "utf8")
        .split(/\r?\n/)
        .map((l) => l.trim().replace(/^\/+|\/+$/g, ""))
        .filter((l) => l && !l.startsWith("#")),
    );

    // COPY, in order, each source from where it comes from.
    for (const ins of final.instructions) {
      if (ins.keyword === "ADD")
        throw new Error(`Dockerfile line ${ins.line}: ADD in the final stage is not reproduced; use COPY`);
      if (ins.keyword !== "COPY") continue;
      const { options, rest } = flags(ins.args);
      const parts = rest.startsWith("[") ? (JSON.parse(rest) as string[]) : words(rest);
      const dest = parts.at(-1);
      const sources = parts.slice(0, -1);
      if (!dest || sources.length === 0)
        throw new Error(`Dockerfile line ${ins.line}: COPY needs a source and a destination`);
      const from = options.get("from");
      const resolved = sources.map((src) => {
        if (src.includes("*") || src.includes("?"))
          throw new Error(`Dockerfile line ${ins.line}: wildcards are not reproduced (${src})`);
        if (from === undefined) {
          const first = path.posix.normalize(src).split("/")[0] ?? "";
          if (dockerignored.has(first))
            throw new Error(`Dockerfile line ${ins.line}: ${src} is excluded by .dockerignore`);
          return path.join(repoRoot, src);
        }
        // From a build stage: that stage copied the context into its WORKDIR and built there, so
        // its WORKDIR is this repository (whose dist/ is the build's output).
        const stage = stages.find((s) => s.name === from);
        if (!stage) throw new Error(`Dockerfile line ${ins.line}: --from=${from} is not a stage of this Dockerfile`);
        const stageWorkdir = workdirOf(stage);
        const absolute = path.posix.resolve(stageWorkdir, src);
        const relative = path.posix.relative(stageWorkdir, absolute);
        if (relative.startsWith(".."))
          throw new Error(`Dockerfile line ${ins.line}: ${src} is outside ${stageWorkdir} of stage ${from}`);
        return fromBuild(relative);
      });
      const target = inImage(imageRoot, finalWorkdir, dest);
      for (const src of resolved) {
        if (!existsSync(src))
          throw new Error(`Dockerfile line ${ins.line}: ${path.relative(repoRoot, src)} does not exist`);
        if (statSync(src).isDirectory()) {
          cpSync(src, target, { recursive: true });
        } else {
          const intoDir = dest.endsWith("/") || sources.length > 1;
          const file = intoDir ? path.join(target, path.basename(src)) : target;
          mkdirSync(path.dirname(file), { recursive: true });
          cpSync(src, file);
        }
      }
    }
    expect(existsSync(path.join(appDir, "dist/server/main.js")), "the final stage copies dist/server").toBe(true);
    expect(existsSync(path.join(appDir, "dist/client/.vite/manifest.json")), "the final stage copies dist/client").toBe(
      true,
    );
    expect(
      existsSync(path.join(appDir, "server")) || existsSync(path.join(appDir, "client")),
      "no sources in the image",
    ).toBe(false);

    // The production install, as the final stage's RUN npm ci does (from the npm cache when it can).
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const install = await run(
      [npm, "ci", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund", "--prefer-offline"],
      {
        cwd: appDir,
        env: { ...process.env, ...finalEnv, npm_config_update_notifier: "false" },
        timeoutMs: 170_000,
      },
    );
    if (install.code !== 0) {
      const missing = [...install.output.matchAll(/Missing: (\S+) from lock file/g)].map((m) => m[1]);
      const hint =
        missing.length > 0
          ? `package-lock.json lacks entries npm ci expects (${missing.join(", ")}): \`docker build\` stops at the same RUN npm ci. Regenerate or complete the lockfile.\n`
          : "";
      throw new Error(
        `npm ci --omit=dev failed (exit ${install.code}) in the reproduced final stage.\n${hint}${install.output}`,
      );
    }
    expect(existsSync(path.join(appDir, "node_modules/vite")), "dev dependencies are not installed").toBe(false);

    // CMD with the image's ENV; only the port, bind address and data folder differ.
    port = await freePort();
    const argv = command(cmd!.args).argv.map((a, i) => (i === 0 && a === "node" ? process.execPath : a));
    const [file, ...args] = argv;
    server = spawn(file!, args, {
      cwd: appDir,
      env: { PATH: process.env.PATH ?? "", ...finalEnv, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir },
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so afterAll can end whatever the CMD started (a shell-form CMD's child).
      detached: true,
    });
    const child = server;
    child.stdout!.on("data", (d: Buffer) => {
      serverOutput += d.toString();
    });
    child.stderr!.on("data", (d: Buffer) => {
      serverOutput += d.toString();
    });
    exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));

    const deadline = Date.now() + 20_000;
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`server exited (${child.exitCode}) before /healthz answered:\n${serverOutput}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        await res.arrayBuffer(); // an unread body would keep the response open through shutdown
        if (res.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`/healthz did not answer within 20 s:\n${serverOutput}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 200_000);

  afterAll(async () => {
    if (server?.pid !== undefined) {
      const running = server.exitCode === null && server.signalCode === null;
      try {
        process.kill(-server.pid, "SIGKILL");
      } catch {
        // the group has already gone
      }
      if (running) await exited;
    }
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("answers /healthz with 200 JSON", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("renders / in Chinese, with the package version and its built assets", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<html lang="zh-CN">');
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { version: string };
    expect(html).toContain(`<meta name="build-version" content="${pkg.version}"/>`);
    const script = /<script type="module" src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script, "the page's entry script").toBeDefined();
    const asset = await fetch(`http://127.0.0.1:${port}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toMatch(/javascript/);
    expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it("passes its own HEALTHCHECK on the PORT it runs with, which fails when nothing listens there", async () => {
    const { rest } = flags(healthcheck!.args);
    const argv = command(rest.replace(/^CMD\s+/, "")).argv;
    // The container's environment, with this machine's node first on the PATH (the image's `node`).
    const probe = (target: number) =>
      run(argv, {
        cwd: appDir,
        env: {
          ...finalEnv,
          PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`,
          PORT: String(target),
        },
        timeoutMs: 10_000,
      });
    const ok = await probe(port);
    expect(ok.code, ok.output).toBe(0);
    const nobody = await probe(await freePort());
    expect(nobody.code).not.toBe(0);
  });

  it("stops on SIGTERM with exit code 0", async () => {
    server!.kill("SIGTERM");
    const code = await Promise.race([exited!, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 15_000))]);
    expect(code, serverOutput).toBe(0);
  }, 20_000);
});
