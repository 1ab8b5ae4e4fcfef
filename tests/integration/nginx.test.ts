/**
 * The fleet's proxy for real: nginx runs deploy/nginx.conf (only its upstream addresses, port,
 * log and temporary folders changed for this machine) in front of the app, and uploads go through
 * it as they would in compose.yaml. A lesson video larger than the old 20 MB cap reaches the app
 * and is accepted; an upload is streamed to the app while it is still being sent, not gathered
 * first; a body over a route's limit is refused by nginx in the app's own JSON shape.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopVideoWork } from "../../api/modules/catalogue-admin/video";
import { HOMEWORK_PHOTO_MAX_BYTES } from "../../shared/contracts/homework";
import { type Account, staffHarness } from "./staff-harness";
import { freePort } from "./helpers";

const NGINX = "/usr/sbin/nginx";
const FFMPEG = "/usr/bin/ffmpeg";
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const dataDir = mkdtempSync(path.join(tmpdir(), "mochi-nginx-data-"));
const h = staffHarness("137", { FFMPEG_PATH: FFMPEG, DATA_DIR: dataDir, VIDEO_UPLOAD_MAX_MB: "64" });

/** deploy/nginx.conf for this machine: the app's port for both nodes, a free port, folders of its own. */
function localConfig(appPort: number, port: number, dir: string): string {
  const conf = readFileSync(path.join(repoRoot, "deploy/nginx.conf"), "utf8");
  const local = conf
    .replace(/^\s*resolver [^;]+;$/m, "")
    // `resolve` (re-resolving Docker's names) needs nginx 1.27.3; the address here never changes.
    .replace(/server web-[ab]:3000 resolve/g, `server 127.0.0.1:${appPort}`)
    .replace(/listen 80;/, `listen 127.0.0.1:${port};`)
    .replace(/access_log \S+/, `access_log ${dir}/access.log`)
    .replace(
      /^http \{$/m,
      `http {\n${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `  ${t}_temp_path ${dir}/${t};`).join("\n")}`,
    );
  expect(local).not.toBe(conf);
  expect(local).toContain(`server 127.0.0.1:${appPort}`);
  return local;
}

let nginx: ChildProcess;
let proxyBase: string;
let nginxDir: string;

beforeAll(async () => {
  nginxDir = mkdtempSync(path.join(tmpdir(), "mochi-nginx-"));
  // Workers may run as another user than the master: they need to reach their folders.
  chmodSync(nginxDir, 0o755);
  const port = await freePort();
  const appPort = Number(new URL(h.base()).port);
  writeFileSync(path.join(nginxDir, "nginx.conf"), localConfig(appPort, port, nginxDir));
  const globals = `daemon off; pid ${nginxDir}/nginx.pid; error_log ${nginxDir}/error.log;`;
  execFileSync(NGINX, ["-t", "-q", "-p", nginxDir, "-c", `${nginxDir}/nginx.conf`, "-g", globals]);
  nginx = spawn(NGINX, ["-p", nginxDir, "-c", `${nginxDir}/nginx.conf`, "-g", globals], { stdio: "ignore" });
  proxyBase = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`${proxyBase}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nginx did not start:\n${readFileSync(`${nginxDir}/error.log`, "utf8")}`);
});

afterAll(async () => {
  stopVideoWork(h.api());
  if (nginx?.pid) process.kill(nginx.pid, "SIGQUIT");
  await new Promise((r) => nginx?.once("exit", r));
  execFileSync("rm", ["-rf", nginxDir, dataDir]);
});

/** A POST through nginx with the operator's or learner's session, as the site's pages send it. */
function viaProxy(who: Account, url: string, body: Buffer, type: string, extra: Record<string, string> = {}) {
  return fetch(`${proxyBase}${url}`, {
    method: "POST",
    headers: {
      Cookie: who.cookie,
      Origin: "http://localhost:3000",
      "Content-Type": type,
      Accept: "application/json",
      ...extra,
    },
    body: new Uint8Array(body),
  });
}

async function lessonOf(op: Account): Promise<number> {
  const teacher = await h.db().selectFrom("teachers").select("id").orderBy("id").executeTakeFirstOrThrow();
  const course = await h.call(op, "POST", "/api/admin/courses", {
    ...{ title: `代理上传 ${Math.random().toString(36).slice(2, 7)}`, subtitle: "经过 nginx", category: "kaishu" },
    ...{ kind: "recorded", level: "beginner", teacherId: teacher.id, priceCents: 9900, originalPriceCents: 19900 },
    ...{ coverChar: "永", summary: "上传视频" },
  });
  const chapter = await h.call(op, "POST", `/api/admin/courses/${course.body.id}/chapters`, { title: "第一章" });
  const lesson = await h.call(op, "POST", `/api/admin/chapters/${chapter.body.chapters[0].id}/lessons`, {
    ...{ title: "横画", summary: "", video: { key: "heng" }, durationSeconds: 30, isTrial: true },
  });
  return lesson.body.chapters[0].lessons[0].id as number;
}

/** A real two-second MP4 followed by a `free` box that makes it `bytes` long: still a valid MP4. */
function paddedClip(bytes: number): Buffer {
  const file = path.join(dataDir, "clip.mp4");
  execFileSync(FFMPEG, [
    ...["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25:duration=2"],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", file],
  ]);
  const clip = readFileSync(file);
  const free = Buffer.alloc(bytes - clip.length);
  free.writeUInt32BE(free.length, 0);
  free.write("free", 4, "latin1");
  return Buffer.concat([clip, free]);
}

const incoming = path.join(dataDir, "uploads", "incoming");
const incomingFiles = () => (existsSync(incoming) ? readdirSync(incoming) : []);
/** Bytes stored in the incoming folder by uploads other than those in `earlier`. */
const bytesArrived = (earlier: string[]) =>
  incomingFiles()
    .filter((f) => !earlier.includes(f))
    .reduce((n, f) => n + statSync(path.join(incoming, f)).size, 0);

describe("nginx in front of the app (deploy/nginx.conf)", () => {
  it("lets a lesson video over 20 MB reach the app, which takes it (202)", async () => {
    const op = await h.account("operator");
    const lessonId = await lessonOf(op);
    const video = paddedClip(25 * 2 ** 20);
    const res = await viaProxy(op, `/api/admin/lessons/${lessonId}/video`, video, "video/mp4");
    const body = (await res.json()) as { job: { lessonId: number; state: string } };
    expect(res.status).toBe(202);
    expect(body.job).toMatchObject({ lessonId });
    const row = await h
      .db()
      .selectFrom("audit_log")
      .select("after")
      .where("action", "=", "lesson.video.upload")
      .where("target_id", "=", String(lessonId))
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row.after)).toContain(`"bytes":${video.length}`);
  }, 60_000);

  it("streams an upload to the app while it is still being sent", async () => {
    const op = await h.account("operator");
    const lessonId = await lessonOf(op);
    const video = paddedClip(12 * 2 ** 20);
    const first = 4 * 2 ** 20;
    const earlier = incomingFiles();
    const answer = new Promise<number>((resolve, reject) => {
      const req = request(`${proxyBase}/api/admin/lessons/${lessonId}/video`, {
        method: "POST",
        headers: {
          Cookie: op.cookie,
          Origin: "http://localhost:3000",
          "Content-Type": "video/mp4",
          "Content-Length": video.length,
        },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on("error", reject);
      req.write(video.subarray(0, first));
      // Only once the app has stored part of the first share is the rest sent: a proxy that
      // gathered the body first would never pass it on, and the upload would wait for ever.
      const sendRest = async () => {
        for (let i = 0; i < 200 && bytesArrived(earlier) < 2 ** 20; i++) await new Promise((r) => setTimeout(r, 50));
        expect(bytesArrived(earlier)).toBeGreaterThanOrEqual(2 ** 20);
        expect(bytesArrived(earlier)).toBeLessThanOrEqual(first);
        req.end(video.subarray(first));
      };
      sendRest().catch(reject);
    });
    expect(await answer).toBe(202);
  }, 60_000);

  it("refuses bodies over each route's limit in the app's JSON shape, and passes those within", async () => {
    const op = await h.account("operator");
    const learner = await h.account("learner");
    // JSON: 32 KB.
    const bigJson = Buffer.from(JSON.stringify({ nickname: "x".repeat(40 * 1024) }));
    const json = await fetch(`${proxyBase}/api/me/profile`, {
      method: "PATCH",
      headers: { Cookie: learner.cookie, Origin: "http://localhost:3000", "Content-Type": "application/json" },
      body: new Uint8Array(bigJson),
    });
    expect(json.status).toBe(413);
    // Refused by nginx (the app marks every answer of its own with a request id).
    expect(json.headers.get("x-request-id")).toBeNull();
    expect(json.headers.get("content-type")).toMatch(/^application\/json/);
    expect(((await json.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");
    // Avatars and covers: 5 MB; the app gets what is within and judges it.
    const picture = await sharp({ create: { width: 400, height: 400, channels: 3, background: "#eee" } })
      .jpeg()
      .toBuffer();
    expect((await viaProxy(learner, "/api/me/avatar", picture, "application/octet-stream")).status).toBe(200);
    const bigPicture = Buffer.concat([picture, Buffer.alloc(5 * 2 ** 20)]);
    const tooBig = await viaProxy(learner, "/api/me/avatar", bigPicture, "image/jpeg");
    expect(tooBig.status).toBe(413);
    expect(tooBig.headers.get("x-request-id")).toBeNull();
    // Homework photos: 15 MB. A 14 MB body passes nginx and meets the app (no task 1 of this learner's: 404).
    const photoRoute = "/api/homework/tasks/999999/photos";
    const within = await viaProxy(
      learner,
      photoRoute,
      Buffer.concat([picture, Buffer.alloc(14 * 2 ** 20)]),
      "image/jpeg",
      {
        "Idempotency-Key": crypto.randomUUID(),
      },
    );
    expect(within.status).not.toBe(413);
    expect(within.headers.get("x-request-id")).not.toBeNull();
    expect(((await within.json()) as { error: { code: string } }).error.code).not.toBe("payload_too_large");
    const over = await viaProxy(learner, photoRoute, Buffer.alloc(HOMEWORK_PHOTO_MAX_BYTES + 1), "image/jpeg");
    expect(over.status).toBe(413);
    expect(over.headers.get("x-request-id")).toBeNull();
    // An ordinary route still takes ordinary JSON.
    expect((await h.call(op, "GET", "/api/admin/media/encoder")).status).toBe(200);
  }, 60_000);
});
