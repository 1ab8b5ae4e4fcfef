import compression from "compression";
import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { wantsGzip } from "./page-cache";

const HEADERS: [string | undefined, boolean][] = [
  [undefined, false],
  ["", false],
  ["gzip", true],
  ["gzip, deflate, br, zstd", true],
  ["br;q=1.0, gzip;q=0.8, *;q=0.1", true],
  ["deflate, br", false],
  ["identity", false],
  ["gzip;q=0", false],
  ["GZIP; Q=0.5", true],
  ["gzip;q=0.5, identity", false],
  ["identity;q=0.2, gzip;q=0.5", true],
  ["*", true],
  ["*;q=0", false],
  // compression does not take x-gzip for gzip: it sends identity.
  ["x-gzip", false],
  // On equal quality the server's preference decides, not the client's order.
  ["identity, gzip", true],
];

describe("wantsGzip (a stored page's encoding, as Express would choose between gzip and identity)", () => {
  it.each(HEADERS)("%s → gzip %s", (header, gzip) => {
    expect(wantsGzip(header)).toBe(gzip);
  });

  it("agrees with the compression middleware wherever it answers with gzip or identity", async () => {
    const page = "<!doctype html>" + "墨".repeat(2000);
    const app = express()
      .use(compression())
      .get("/", (_req, res) => res.type("html").send(page));
    // Forms negotiator reads differently from a hand parser: an unreadable quality, `Q=`, `q = 0`.
    const odd = ["gzip;q=abc", "GZIP; Q=0.5, identity;q=0.8", "gzip; q = 0, identity;q=0.5", "identity;q=0"];
    const headers = [...HEADERS.flatMap(([header]) => (header ? [header] : [])), ...odd];
    let compared = 0;
    for (const header of headers) {
      const res = await request(app)
        .get("/")
        .set("Accept-Encoding", header)
        .buffer(true)
        .parse((stream, done) => {
          stream.on("data", () => {});
          stream.on("end", () => done(null, null));
        });
      const chosen = res.headers["content-encoding"] ?? "identity";
      if (chosen !== "gzip" && chosen !== "identity") continue;
      compared++;
      expect({ header, gzip: wantsGzip(header) }).toEqual({ header, gzip: chosen === "gzip" });
    }
    expect(compared).toBe(13);
  });
});
