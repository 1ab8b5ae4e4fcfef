import { describe, expect, it } from "vitest";
import { wantsGzip } from "./page-cache";

describe("wantsGzip (a stored page's encoding, as Express would choose between gzip and identity)", () => {
  it.each([
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
    ["x-gzip", true],
  ])("%s → gzip %s", (header, gzip) => {
    expect(wantsGzip(header)).toBe(gzip);
  });
});
