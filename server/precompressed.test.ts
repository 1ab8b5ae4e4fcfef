import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from "node:zlib";
import compression from "compression";
import express from "express";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawGet } from "../tests/raw-get";
import { chooseEncoding, precompressedAssets, precompressedCopies } from "./precompressed";

const dir = mkdtempSync(path.join(os.tmpdir(), "mochi-precompressed-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const script = Buffer.from(`export const page = ${JSON.stringify("墨池".repeat(800))};\n`);
writeFileSync(path.join(dir, "page-abc.js"), script);
// Settings compression does not use per request, so a test can tell the copy from its output.
const scriptBr = brotliCompressSync(script, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
const scriptGz = gzipSync(script, { level: 1 });
writeFileSync(path.join(dir, "page-abc.js.br"), scriptBr);
writeFileSync(path.join(dir, "page-abc.js.gz"), scriptGz);
const style = Buffer.from(`.a{color:red}\n`.repeat(200));
writeFileSync(path.join(dir, "site.css"), style);
writeFileSync(path.join(dir, "site.css.gz"), gzipSync(style));
writeFileSync(path.join(dir, "plain.js"), "export {};\n");

/** As the server mounts it: compression first, the copies, then the static files. */
function app() {
  const a = express();
  a.use(compression());
  a.use("/assets", precompressedAssets(dir));
  a.use("/assets", express.static(dir, { immutable: true, maxAge: "1y", index: false, fallthrough: false }));
  return a;
}

let base = "";
const server = app().listen(0, "127.0.0.1");
beforeAll(async () => {
  if (!server.listening) await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const get = (file: string, acceptEncoding?: string) =>
  rawGet(`${base}/assets/${file}`, acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding });

describe("precompressedCopies", () => {
  it("lists each file with the copies beside it, and not the copies themselves", () => {
    const copies = precompressedCopies(dir);
    expect(Object.fromEntries(copies)).toEqual({ "page-abc.js": ["br", "gzip"], "site.css": ["gzip"] });
  });

  it("is empty for a directory that does not exist", () => {
    expect(precompressedCopies(path.join(dir, "missing")).size).toBe(0);
  });
});

describe("chooseEncoding", () => {
  it.each([
    ["gzip, deflate, br, zstd", ["br", "gzip"], "br"],
    ["gzip, deflate", ["br", "gzip"], "gzip"],
    ["br;q=0.5, gzip", ["br", "gzip"], "gzip"],
    ["br", ["gzip"], undefined],
    ["identity", ["br", "gzip"], undefined],
    ["*", ["br", "gzip"], "br"],
    ["gzip;q=0, br;q=0", ["br", "gzip"], undefined],
    [undefined, ["br", "gzip"], undefined],
  ] as const)("%s with %j → %s", (header, available, expected) => {
    expect(chooseEncoding(header, available)).toBe(expected);
  });
});

describe("precompressed assets", () => {
  it("sends the brotli copy to a browser that takes br, typed as the script and cached for good", async () => {
    const res = await get("page-abc.js", "gzip, deflate, br");
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(res.headers["vary"]).toMatch(/Accept-Encoding/i);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(Number(res.headers["content-length"])).toBe(res.body.length);
    expect(res.body.equals(scriptBr)).toBe(true);
    expect(brotliDecompressSync(res.body).equals(script)).toBe(true);
  });

  it("sends the gzip copy to a client that takes only gzip", async () => {
    const res = await get("page-abc.js", "gzip");
    expect(res.headers["content-encoding"]).toBe("gzip");
    expect(res.body.equals(scriptGz)).toBe(true);
    expect(gunzipSync(res.body).equals(script)).toBe(true);
  });

  it("sends the plain file without Accept-Encoding, and to a client that refuses both", async () => {
    for (const header of [undefined, "identity", "gzip;q=0, br;q=0"]) {
      const res = await get("page-abc.js", header);
      expect(res.headers["content-encoding"]).toBeUndefined();
      expect(res.body.equals(script)).toBe(true);
    }
  });

  it("a file with only a gzip copy: a br-only client gets it compressed per request, as before", async () => {
    const res = await get("site.css", "br");
    expect(res.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(res.body).equals(style)).toBe(true);
    const gz = await get("site.css", "gzip");
    expect(gz.headers["content-type"]).toMatch(/^text\/css/);
    expect(gunzipSync(gz.body).equals(style)).toBe(true);
  });

  it("HEAD answers the copy's headers without a body; an unchanged copy is 304", async () => {
    const head = await request(app()).head("/assets/page-abc.js").set("Accept-Encoding", "br");
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("br");
    const first = await request(app()).get("/assets/page-abc.js").set("Accept-Encoding", "br");
    const again = await request(app())
      .get("/assets/page-abc.js")
      .set("Accept-Encoding", "br")
      .set("If-None-Match", String(first.headers["etag"]));
    expect(again.status).toBe(304);
  });

  it("the copies are not addressable apart, and unknown or escaping paths stay 404", async () => {
    expect((await request(app()).get("/assets/plain.js").set("Accept-Encoding", "br")).status).toBe(200);
    expect((await request(app()).get("/assets/missing.js").set("Accept-Encoding", "br")).status).toBe(404);
    expect((await request(app()).get("/assets/..%2Fpage-abc.js").set("Accept-Encoding", "br")).status).not.toBe(200);
    const post = await request(app()).post("/assets/page-abc.js").set("Accept-Encoding", "br");
    expect(post.headers["content-encoding"]).toBeUndefined();
  });
});
