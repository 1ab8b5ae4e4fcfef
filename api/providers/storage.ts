/**
 * Where avatars are kept. By default a folder under DATA_DIR (`uploads/avatars`), served by the
 * web server at /avatar/<name>.webp. With S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and
 * S3_SECRET_ACCESS_KEY set, an S3-compatible bucket instead (objects under `avatar/`), signed
 * with AWS Signature Version 4 written here rather than pulled in as an SDK; AVATAR_ORIGIN then
 * points at the bucket's public address so /avatar/* is proxied there.
 * Names are always generated (32 random hex digits), never taken from the upload.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { mkdir, rename, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import type { ApiContext } from "../context";

export interface AvatarStorage {
  /** Stores a finished WebP avatar under a new random name; returns its public path. */
  save(image: Buffer): Promise<string>;
  /** Removes an avatar this storage made, by its public path; anything else is left alone. */
  remove(url: string): Promise<void>;
}

const AVATAR_URL_PREFIX = "/avatar/";
const AVATAR_NAME = /^\/avatar\/([0-9a-f]{32}\.webp)$/;

function newAvatarName(): string {
  return `${randomBytes(16).toString("hex")}.webp`;
}

/** The stored file name behind a public avatar path, or null when it is not one of ours. */
export function avatarNameOf(url: string | null | undefined): string | null {
  return url ? (AVATAR_NAME.exec(url)?.[1] ?? null) : null;
}

export class LocalAvatarStorage implements AvatarStorage {
  constructor(readonly dir: string) {}

  async save(image: Buffer): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const name = newAvatarName();
    // Written aside and renamed, so the web server never serves half a file.
    const temp = path.join(this.dir, `.${name}.tmp`);
    await writeFile(temp, image, { mode: 0o644 });
    await rename(temp, path.join(this.dir, name));
    return `${AVATAR_URL_PREFIX}${name}`;
  }

  async remove(url: string): Promise<void> {
    const name = avatarNameOf(url);
    if (!name) return;
    await unlink(path.join(this.dir, name)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== "ENOENT") throw err;
    });
  }
}

export interface S3Settings {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

// ---------- AWS Signature Version 4 (header form) ----------

export const sha256Hex = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it: only A–Z a–z 0–9 - _ . ~ stay as they are. */
function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function canonicalPath(pathname: string): string {
  return pathname
    .split("/")
    .map((segment) => uriEncode(decodeURIComponent(segment)))
    .join("/");
}

function canonicalQuery(params: URLSearchParams): string {
  return [...params]
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join("&");
}

const amzDate = (now: Date) =>
  now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

export interface SignableRequest {
  method: string;
  url: URL;
  /** Headers to sign besides host, x-amz-date and x-amz-content-sha256 (added here). */
  headers: Record<string, string>;
  payloadHash: string;
  now: Date;
  region: string;
  service?: string;
}

/** The headers to send: the caller's, plus host, x-amz-date, x-amz-content-sha256 and authorization. */
export function signV4(
  req: SignableRequest,
  credentials: { accessKeyId: string; secretAccessKey: string },
): Record<string, string> {
  const service = req.service ?? "s3";
  const stamp = amzDate(req.now);
  const day = stamp.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) headers[k.toLowerCase()] = v.trim().replace(/\s+/g, " ");
  headers.host = req.url.host;
  headers["x-amz-date"] = stamp;
  headers["x-amz-content-sha256"] = req.payloadHash;
  const names = Object.keys(headers).sort();
  const signedHeaders = names.join(";");
  const canonicalRequest = [
    req.method.toUpperCase(),
    canonicalPath(req.url.pathname),
    canonicalQuery(req.url.searchParams),
    names.map((n) => `${n}:${headers[n]}\n`).join(""),
    signedHeaders,
    req.payloadHash,
  ].join("\n");
  const scope = `${day}/${req.region}/${service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", stamp, scope, sha256Hex(canonicalRequest)].join("\n");
  const signingKey = hmac(
    hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), req.region), service),
    "aws4_request",
  );
  const signature = createHmac("sha256", signingKey).update(stringToSign).digest("hex");
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}

/** An S3-compatible bucket addressed path-style (`endpoint/bucket/key`), which every vendor accepts. */
export class S3AvatarStorage implements AvatarStorage {
  constructor(
    private readonly settings: S3Settings,
    private readonly now: () => Date = () => new Date(),
    private readonly timeoutMs = 10_000,
  ) {}

  private objectUrl(name: string): URL {
    const base = this.settings.endpoint.replace(/\/+$/, "");
    return new URL(`${base}/${uriEncode(this.settings.bucket)}/avatar/${name}`);
  }

  private async send(method: "PUT" | "DELETE", name: string, body?: Buffer): Promise<Response> {
    const url = this.objectUrl(name);
    const extra: Record<string, string> = body
      ? { "content-type": "image/webp", "cache-control": "public, max-age=31536000, immutable" }
      : {};
    const headers = signV4(
      {
        method,
        url,
        headers: extra,
        payloadHash: sha256Hex(body ?? ""),
        now: this.now(),
        region: this.settings.region,
      },
      this.settings,
    );
    // Host is set by fetch itself from the URL; it was signed with the same value.
    const { host: _host, ...sent } = headers;
    return fetch(url, {
      method,
      headers: sent,
      body: body ? new Uint8Array(body) : undefined,
      redirect: "manual",
      signal: AbortSignal.timeout(this.timeoutMs),
    });
  }

  async save(image: Buffer): Promise<string> {
    const name = newAvatarName();
    const res = await this.send("PUT", name, image);
    await res.arrayBuffer().catch(() => undefined);
    if (res.status < 200 || res.status >= 300) throw new Error(`avatar upload to object storage failed: ${res.status}`);
    return `${AVATAR_URL_PREFIX}${name}`;
  }

  async remove(url: string): Promise<void> {
    const name = avatarNameOf(url);
    if (!name) return;
    const res = await this.send("DELETE", name);
    await res.arrayBuffer().catch(() => undefined);
    if (res.status !== 404 && (res.status < 200 || res.status >= 300))
      throw new Error(`avatar removal from object storage failed: ${res.status}`);
  }
}

const storageEnvSchema = z.object({
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/)
    .optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
});

/** S3 settings from the environment: all four variables, or none (the local folder). */
export function s3SettingsFromEnv(env: NodeJS.ProcessEnv): S3Settings | null {
  const present = (v: string | undefined) => (v ? v : undefined);
  const parsed = storageEnvSchema.safeParse({
    S3_ENDPOINT: present(env.S3_ENDPOINT),
    S3_BUCKET: present(env.S3_BUCKET),
    S3_ACCESS_KEY_ID: present(env.S3_ACCESS_KEY_ID),
    S3_SECRET_ACCESS_KEY: present(env.S3_SECRET_ACCESS_KEY),
    S3_REGION: present(env.S3_REGION),
  });
  if (!parsed.success) {
    throw new Error(`Invalid object storage configuration: ${parsed.error.issues.map((i) => i.path[0]).join(", ")}`);
  }
  const e = parsed.data;
  const given = [e.S3_ENDPOINT, e.S3_BUCKET, e.S3_ACCESS_KEY_ID, e.S3_SECRET_ACCESS_KEY].filter(Boolean).length;
  if (given === 0) return null;
  if (given < 4 || !e.S3_ENDPOINT || !e.S3_BUCKET || !e.S3_ACCESS_KEY_ID || !e.S3_SECRET_ACCESS_KEY) {
    throw new Error("Object storage needs S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY together");
  }
  return {
    endpoint: e.S3_ENDPOINT,
    bucket: e.S3_BUCKET,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    region: e.S3_REGION,
  };
}

function createAvatarStorage(dataDir: string, env: NodeJS.ProcessEnv = process.env): AvatarStorage {
  const s3 = s3SettingsFromEnv(env);
  return s3 ? new S3AvatarStorage(s3) : new LocalAvatarStorage(path.join(dataDir, "uploads", "avatars"));
}

const storages = new WeakMap<ApiContext, AvatarStorage>();

/** The avatar storage of an API context, made on first use from its settings and the environment. */
export function avatarStorageFor(ctx: ApiContext): AvatarStorage {
  let storage = storages.get(ctx);
  if (!storage) {
    storage = createAvatarStorage(ctx.settings.dataDir);
    storages.set(ctx, storage);
  }
  return storage;
}
