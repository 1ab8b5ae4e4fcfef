/**
 * What an operator deploys from, checked without Docker: compose.yaml (parsed), deploy/nginx.conf,
 * and one list of configuration variables — the server's schema and every variable the code
 * reads — held equal to the README's configuration table and to .env.example.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { JSON_BODY_MAX_BYTES } from "../../api/http";
import { HOMEWORK_PHOTO_MAX_BYTES } from "../../shared/contracts/homework";
import { AVATAR_MAX_BYTES } from "../../shared/contracts/me";
import { s3SettingsFromEnv } from "../../api/providers/storage";
import { loadConfig } from "../../server/config";
import { envSchema } from "../../server/env-schema";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const read = (relative: string) => readFileSync(path.join(repoRoot, relative), "utf8");

// ---------------------------------------------------------------------------------------------
// Configuration variables

/** The variables named in the first column of the README's configuration table. */
function readmeVariables(): Set<string> {
  const readme = read("README.md");
  const section = readme.slice(readme.indexOf("## Configuration"));
  const names = new Set<string>();
  for (const line of section.split("\n")) {
    if (!line.startsWith("| `")) continue;
    const firstCell = line.split("|")[1] ?? "";
    for (const m of firstCell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(m[1]!);
  }
  return names;
}

/** `NAME=value` and `# NAME=value` (shown with its default, not set) lines of .env.example. */
function envExampleVariables(): { set: Set<string>; all: string[] } {
  const all: string[] = [];
  const set = new Set<string>();
  for (const line of read(".env.example").split("\n")) {
    const m = /^(#\s*)?([A-Z][A-Z0-9_]*)=/.exec(line);
    if (!m) continue;
    all.push(m[2]!);
    if (!m[1]) set.add(m[2]!);
  }
  return { set, all };
}

/** The value each `# NAME=value` line shows (the variable's default, or empty for none). */
function envExampleShown(): Map<string, string> {
  const shown = new Map<string, string>();
  for (const line of read(".env.example").split("\n")) {
    const m = /^#\s*([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (m) shown.set(m[1]!, m[2]!);
  }
  return shown;
}

/** Every provider configured (placeholder values), so their own defaults matter too. */
const configuredEnv: NodeJS.ProcessEnv = {
  SMS_PROVIDER: "aliyun",
  ALIYUN_ACCESS_KEY_ID: "id",
  ALIYUN_ACCESS_KEY_SECRET: "secret",
  ALIYUN_SMS_SIGN_NAME: "墨池课堂",
  ALIYUN_SMS_TEMPLATE_CODE: "SMS_1",
  MAIL_TRANSPORT: "smtp",
  SMTP_URL: "smtps://user:pass@mail.example.cn:465",
  SMTP_FROM: "noreply@example.cn",
  WECHAT_APP_ID: "wxapp",
  WECHAT_APP_SECRET: "wxsecret",
  WECHATPAY_MCH_ID: "1900000001",
  WECHATPAY_APP_ID: "wxpay",
  WECHATPAY_SERIAL_NO: "serial",
  WECHATPAY_PRIVATE_KEY: "private",
  WECHATPAY_API_V3_KEY: "k".repeat(32),
  WECHATPAY_PLATFORM_PUBLIC_KEY: "public",
  WECHATPAY_PLATFORM_KEY_ID: "key-id",
  ALIPAY_APP_ID: "2021000000000000",
  ALIPAY_PRIVATE_KEY: "private",
  ALIPAY_PUBLIC_KEY: "public",
  S3_ENDPOINT: "https://s3.example.cn",
  S3_BUCKET: "mochi-avatars",
  S3_ACCESS_KEY_ID: "id",
  S3_SECRET_ACCESS_KEY: "secret",
};

/** The configuration, or the reason it was refused (so a refused value shows up in the diff). */
function configOrRefusal(env: NodeJS.ProcessEnv): unknown {
  try {
    return loadConfig(env);
  } catch (err) {
    return `refused: ${(err as Error).message}`;
  }
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(repoRoot, dir)).flatMap((name) => {
    const relative = path.join(dir, name);
    if (statSync(path.join(repoRoot, relative)).isDirectory()) return sourceFiles(relative);
    return /\.(ts|tsx|mjs)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [relative] : [];
  });
}

/** Variables the code reads outside the schema: `process.env.X`, `env.X`, `e.X` (an env object). */
function variablesReadByCode(): Set<string> {
  const names = new Set<string>();
  for (const file of ["server", "api", "shared", "scripts"].flatMap(sourceFiles).concat("vite.config.ts")) {
    for (const m of read(file).matchAll(/\b(?:process\.env|env|e)\.([A-Z][A-Z0-9_]{2,})\b/g)) names.add(m[1]!);
  }
  return names;
}

/** ${NAME} and ${NAME:-default} / ${NAME:?message} that compose.yaml takes from .env. */
function composeInterpolations(text: string): Set<string> {
  return new Set([...text.matchAll(/\$\{([A-Z][A-Z0-9_]*)(?::?[-?][^}]*)?\}/g)].map((m) => m[1]!));
}

describe("configuration variables", () => {
  const readme = readmeVariables();
  const example = envExampleVariables();
  const compose = composeInterpolations(read("compose.yaml"));

  it("the README table documents every variable of the server's schema", () => {
    const schema = Object.keys(envSchema.shape);
    expect(schema.length).toBeGreaterThan(40);
    expect(schema.filter((name) => !readme.has(name))).toEqual([]);
  });

  it("the README table documents every variable the code reads outside the schema (S3, tests, build)", () => {
    const read = variablesReadByCode();
    expect(read.has("S3_BUCKET")).toBe(true);
    // The operating system's own (the encoder is looked up on PATH) are not ours to document.
    const system = new Set(["PATH"]);
    expect([...read].filter((name) => !readme.has(name) && !system.has(name))).toEqual([]);
  });

  it(".env.example lists every variable of the README table, each once", () => {
    expect([...readme].filter((name) => !example.all.includes(name))).toEqual([]);
    expect(example.all.filter((name, i) => example.all.indexOf(name) !== i)).toEqual([]);
  });

  it(".env.example lists nothing else than README variables and compose.yaml's own", () => {
    expect(example.all.filter((name) => !readme.has(name) && !compose.has(name))).toEqual([]);
  });

  it(".env.example shows the real defaults: setting a shown value changes nothing", () => {
    const shown = envExampleShown();
    const schema = new Set(Object.keys(envSchema.shape));
    expect(shown.get("DRAIN_DELAY_MS")).toBeDefined();
    // With nothing else set (an empty value too must mean unset), and with every provider
    // configured (their endpoints' defaults; an empty credential there would switch one off).
    for (const base of [{}, configuredEnv]) {
      const unset = configOrRefusal(base);
      const differing = [...shown]
        .filter(
          ([name, value]) => schema.has(name) && !(name in base) && (base === configuredEnv ? value !== "" : true),
        )
        .filter(([name, value]) => !isDeepStrictEqual(configOrRefusal({ ...base, [name]: value }), unset))
        .map(([name, value]) => `${name}=${value}`);
      expect(differing, "shown values that are not what the server uses when unset").toEqual([]);
    }
    // Object storage reads its own variables, the same way.
    const s3 = [...shown].filter(([name]) => name.startsWith("S3_"));
    expect(s3.length).toBe(5);
    for (const base of [{}, configuredEnv])
      for (const [name, value] of s3.filter(
        ([name, value]) => !(name in base) && (base === configuredEnv ? value !== "" : true),
      ))
        expect(s3SettingsFromEnv({ ...base, [name]: value }), name).toEqual(s3SettingsFromEnv(base));
    // The scripts' and tests' own variables show no value: the README gives their defaults.
    const others = [...shown].filter(([name]) => !schema.has(name) && !name.startsWith("S3_"));
    expect(others.filter(([, value]) => value !== "")).toEqual([]);
  });

  it(".env.example sets only what is safe to set empty, and carries no secret", () => {
    // Anything set (not commented) reaches every container through env_file.
    expect([...example.set]).toEqual(["POSTGRES_PASSWORD"]);
    for (const line of read(".env.example").split("\n")) {
      const m = /^#?\s*([A-Z][A-Z0-9_]*(?:SECRET|PASSWORD|TOKEN|KEY)[A-Z0-9_]*)=(.*)$/.exec(line);
      if (m) expect(m[2], m[1]).toBe("");
    }
  });
});

// ---------------------------------------------------------------------------------------------
// compose.yaml and nginx

interface ComposeService {
  image?: string;
  build?: unknown;
  environment?: Record<string, string | number>;
  volumes?: string[];
  healthcheck?: { test: string[]; interval?: string };
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
  ports?: string[];
}

const composeText = read("compose.yaml");
const compose = load(composeText) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
const nginx = read("deploy/nginx.conf");
/** "25s", "1m30s" → milliseconds. */
const duration = (text: string | undefined) =>
  [...(text ?? "").matchAll(/(\d+)(ms|s|m|h)/g)].reduce(
    (sum, [, n, unit]) => sum + Number(n) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as "ms"],
    0,
  );

describe("compose.yaml", () => {
  const services = compose.services;
  const webNodes = Object.entries(services).filter(([, s]) => s.environment?.DATABASE_URL !== undefined);

  it("runs PostgreSQL 17 on a named volume with a pg_isready healthcheck", () => {
    const db = services.db!;
    expect(db.image).toMatch(/^postgres:17(\.|-|$)/);
    const dataVolume = db.volumes?.find((v) => v.endsWith(":/var/lib/postgresql/data"));
    expect(dataVolume, "the data directory on a volume").toBeDefined();
    expect(Object.keys(compose.volumes)).toContain(dataVolume!.split(":")[0]);
    expect(db.healthcheck?.test.join(" ")).toContain("pg_isready");
    expect(db.ports, "the database is not published").toBeUndefined();
  });

  it("runs two web nodes of the Dockerfile's image, on the db service once it is healthy", () => {
    expect(webNodes.map(([name]) => name)).toHaveLength(2);
    expect(webNodes.some(([, s]) => s.build === ".")).toBe(true);
    expect(new Set(webNodes.map(([, s]) => s.image)).size).toBe(1);
    for (const [name, node] of webNodes) {
      expect(node.depends_on?.db?.condition, name).toBe("service_healthy");
      expect(String(node.environment?.DATABASE_URL), name).toMatch(/^postgres:\/\/[^@]+@db:5432\//);
      expect(node.environment?.PUBLIC_ORIGIN, name).toBeTruthy();
      expect(Number(node.environment?.TRUST_PROXY_HOPS), name).toBe(1);
    }
  });

  it("drains for the readiness probe's interval and stops well inside the grace period", () => {
    for (const [name, node] of webNodes) {
      const drain = Number(node.environment?.DRAIN_DELAY_MS);
      expect(node.healthcheck?.test.join(" "), name).toContain("/readyz");
      expect(drain, name).toBe(duration(node.healthcheck?.interval));
      const shutdown = Number(node.environment?.SHUTDOWN_TIMEOUT_MS ?? 15_000);
      expect(duration(node.stop_grace_period), name).toBeGreaterThan(drain + shutdown);
    }
  });

  it("shares one uploads volume at DATA_DIR/uploads between the nodes", () => {
    const dockerfile = read("Dockerfile");
    const dataDir = /ENV DATA_DIR=(\S+)/.exec(dockerfile)?.[1];
    expect(dataDir).toBe("/data");
    const mounts = webNodes.map(([, s]) => s.volumes?.find((v) => v.endsWith(`:${dataDir}/uploads`)));
    expect(mounts[0]).toBeDefined();
    expect(mounts[1]).toBe(mounts[0]);
    expect(Object.keys(compose.volumes)).toContain(mounts[0]!.split(":")[0]);
    // The image makes the folder, so a fresh volume mounted there belongs to the app user.
    expect(dockerfile).toMatch(new RegExp(`mkdir -p ${dataDir}/uploads && chown node:node .*${dataDir}/uploads`));
  });

  it("puts nginx in front of both nodes once they are ready, with deploy/nginx.conf", () => {
    const proxy = services.proxy!;
    expect(proxy.image).toMatch(/^nginx:/);
    expect(proxy.volumes).toContain("./deploy/nginx.conf:/etc/nginx/nginx.conf:ro");
    for (const [name] of webNodes) expect(proxy.depends_on?.[name]?.condition).toBe("service_healthy");
    expect(proxy.ports?.length).toBe(1);
  });
});

describe("deploy/nginx.conf", () => {
  const upstream = /upstream\s+(\w+)\s*\{([^}]*)\}/.exec(nginx);

  it("balances over both nodes with passive health checks", () => {
    expect(upstream).not.toBeNull();
    const servers = [...upstream![2]!.matchAll(/^\s*server\s+([\w.-]+):3000\b([^;]*);/gm)];
    const webNodes = Object.entries(compose.services)
      .filter(([, s]) => s.environment?.DATABASE_URL !== undefined)
      .map(([name]) => name);
    expect(servers.map((s) => s[1]).sort()).toEqual(webNodes.sort());
    for (const s of servers) {
      expect(s[2]).toMatch(/max_fails=\d+/);
      expect(s[2]).toMatch(/fail_timeout=\d+s/);
    }
    expect(nginx).toContain(`proxy_pass http://${upstream![1]};`);
  });

  it("retries the other node on errors, timeouts, 502 and 503", () => {
    const directive = /^\s*proxy_next_upstream\s+([^;]+);/m.exec(nginx)?.[1]?.split(/\s+/) ?? [];
    for (const when of ["error", "timeout", "http_502", "http_503"]) expect(directive).toContain(when);
    // `non_idempotent` would repeat a POST (a payment, an order) that already reached a node.
    expect(nginx).not.toContain("non_idempotent");
  });

  it("passes the client's address and scheme, overwriting what the client sent", () => {
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/);
    expect(nginx).toMatch(/proxy_set_header X-Forwarded-Proto \$scheme;/);
  });

  /** The location blocks with a pattern: their regex and their directives. */
  const locations = [...nginx.matchAll(/location ~ (\S+) \{([^}]*)\}/g)].map(([, pattern, body]) => ({
    pattern: new RegExp(pattern!),
    body: body!,
  }));
  const locationOf = (path: string) => locations.find((l) => l.pattern.test(path));
  /** "2048m", "15m", "32k" → bytes. */
  const size = (text: string | undefined) => {
    const m = /^(\d+)([km]?)$/.exec(text ?? "");
    return m ? Number(m[1]) * { "": 1, k: 1024, m: 1024 ** 2 }[m[2] as ""] : NaN;
  };
  const bodyLimit = (block: string) => size(/client_max_body_size (\w+);/.exec(block)?.[1]);

  it("takes on each upload route exactly the app's limit, and streams the body to the node", () => {
    const routes: [string, number][] = [
      ["/api/admin/lessons/12/video", envSchema.shape.VIDEO_UPLOAD_MAX_MB.parse(undefined) * 2 ** 20],
      ["/api/homework/tasks/3/photos", HOMEWORK_PHOTO_MAX_BYTES],
      ["/api/practice/diary/2026-05-04/photo", HOMEWORK_PHOTO_MAX_BYTES],
      ["/api/me/avatar", AVATAR_MAX_BYTES],
      ["/api/admin/courses/5/cover", AVATAR_MAX_BYTES],
      ["/api/admin/books/5/cover", AVATAR_MAX_BYTES],
      ["/api/admin/commodities/5/cover", AVATAR_MAX_BYTES],
    ];
    for (const [path, appLimit] of routes) {
      const block = locationOf(path);
      expect(block, path).toBeDefined();
      expect(bodyLimit(block!.body), path).toBe(appLimit);
      expect(block!.body, path).toMatch(/proxy_request_buffering off;/);
      expect(block!.body, path).toContain("proxy_pass http://mochi_web;");
      expect(duration(/client_body_timeout (\w+);/.exec(block!.body)?.[1]), path).toBeGreaterThanOrEqual(60_000);
    }
    expect(bodyLimit(locationOf("/api/admin/lessons/12/video")!.body)).toBeGreaterThan(20 * 2 ** 20);
    // The node answers a video once ffprobe (at most 60 s) has read it.
    const video = locationOf("/api/admin/lessons/12/video")!.body;
    expect(duration(/proxy_read_timeout (\w+);/.exec(video)?.[1])).toBeGreaterThan(60_000);
    for (const other of ["/api/admin/lessons/12", "/api/admin/lessons/12/video/x", "/api/me/avatar2", "/api/orders"])
      expect(
        locations.filter((l) => l.pattern.test(other) && /client_max_body_size/.test(l.body)),
        other,
      ).toEqual([]);
  });

  it("takes elsewhere the app's JSON limit, and answers a body over a limit as the app would (JSON)", () => {
    const outside = nginx.replace(/location [^{]+\{.*?\n\s*\}\n/gs, "");
    const limits = [...outside.matchAll(/client_max_body_size (\w+);/g)].map((m) => size(m[1]));
    expect(limits).toHaveLength(1);
    expect(limits[0]).toBe(JSON_BODY_MAX_BYTES);
    expect(nginx).toMatch(/error_page 413 = @too_large;/);
    const named = /location @too_large \{(.*?)\n\s*\}\n/s.exec(nginx)?.[1] ?? "";
    expect(named).toMatch(/default_type "application\/json; charset=utf-8";/);
    const answer = /return 413 '([^']+)';/.exec(named)?.[1];
    expect(JSON.parse(answer!)).toEqual({
      error: { code: "payload_too_large", message: expect.stringMatching(/太大/) },
    });
  });

  it("streams the live room's and scan-code login's events unbuffered, uncompressed and long", () => {
    const block = /location ~ ([^{]+)\{([^}]*)\}/.exec(nginx);
    expect(block).not.toBeNull();
    const pattern = new RegExp(block![1]!.trim());
    for (const p of ["/api/live/12/events", "/api/auth/qr/abc-DEF_1/events"]) expect(p).toMatch(pattern);
    for (const p of ["/api/live/12", "/api/live/12/messages", "/live/12/events"]) expect(p).not.toMatch(pattern);
    const body = block![2]!;
    expect(body).toMatch(/proxy_buffering off;/);
    expect(body).toMatch(/gzip off;/);
    const timeout = /proxy_read_timeout (\w+);/.exec(body)?.[1];
    expect(duration(timeout)).toBeGreaterThanOrEqual(10 * 60_000);
  });
});

// ---------------------------------------------------------------------------------------------
// The files every Node project has

describe("project files", () => {
  it("pins Node 24 (.nvmrc, the container's base) and npm (packageManager)", () => {
    expect(read(".nvmrc").trim()).toBe("24");
    expect(read("Dockerfile")).toMatch(/^FROM node:24\./m);
    const pkg = JSON.parse(read("package.json")) as { packageManager?: string };
    expect(pkg.packageManager).toMatch(/^npm@11\.\d+\.\d+$/);
  });

  it("has an .editorconfig that agrees with Prettier", () => {
    const editorconfig = read(".editorconfig");
    const prettier = JSON.parse(read(".prettierrc.json")) as { printWidth: number };
    expect(editorconfig).toMatch(/^root = true$/m);
    expect(editorconfig).toMatch(/^indent_size = 2$/m);
    expect(editorconfig).toContain(`max_line_length = ${prettier.printWidth}`);
  });

  it("tells on the README's first screen which address to open and where the login codes are", () => {
    const firstScreen = read("README.md").split("\n").slice(0, 25).join("\n");
    expect(firstScreen).toContain("http://localhost:3000");
    expect(firstScreen).toContain("/dev/outbox");
  });
});
