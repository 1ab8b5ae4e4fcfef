import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalAvatarStorage, S3AvatarStorage, avatarNameOf, s3SettingsFromEnv, sha256Hex, signV4 } from "./storage";

const AWS_EXAMPLE = {
  accessKeyId: "AKIAIOSFODNN7EXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
};
const signatureOf = (authorization: string | undefined) => /Signature=([0-9a-f]{64})$/.exec(authorization ?? "")?.[1];

describe("AWS Signature Version 4", () => {
  it("matches the PUT Object example of the S3 documentation", () => {
    const body = "Welcome to Amazon S3.";
    const payloadHash = sha256Hex(body);
    expect(payloadHash).toBe("44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
    const headers = signV4(
      {
        method: "PUT",
        url: new URL("https://examplebucket.s3.amazonaws.com/test$file.text"),
        headers: { Date: "Fri, 24 May 2013 00:00:00 GMT", "x-amz-storage-class": "REDUCED_REDUNDANCY" },
        payloadHash,
        now: new Date("2013-05-24T00:00:00Z"),
        region: "us-east-1",
      },
      AWS_EXAMPLE,
    );
    expect(headers.authorization).toContain(
      "Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,",
    );
    expect(signatureOf(headers.authorization)).toBe("98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
    expect(headers["x-amz-date"]).toBe("20130524T000000Z");
  });

  it("matches the GET Object example (a Range header, empty payload)", () => {
    const headers = signV4(
      {
        method: "GET",
        url: new URL("https://examplebucket.s3.amazonaws.com/test.txt"),
        headers: { Range: "bytes=0-9" },
        payloadHash: sha256Hex(""),
        now: new Date("2013-05-24T00:00:00Z"),
        region: "us-east-1",
      },
      AWS_EXAMPLE,
    );
    expect(signatureOf(headers.authorization)).toBe("f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  });
});

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
  signatureValid: boolean;
}

/** A stand-in for an S3 endpoint: checks each request's signature and keeps what it got. */
function fakeS3(secret: { accessKeyId: string; secretAccessKey: string }) {
  const received: Received[] = [];
  let reply = 200;
  let location: string | null = null;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const auth = req.headers.authorization ?? "";
      const signed = /SignedHeaders=([^,]+)/.exec(auth)?.[1]?.split(";") ?? [];
      const extra: Record<string, string> = {};
      for (const name of signed) {
        if (!["host", "x-amz-date", "x-amz-content-sha256"].includes(name)) extra[name] = String(req.headers[name]);
      }
      const stamp = String(req.headers["x-amz-date"]);
      const when = new Date(
        `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`,
      );
      const expected = signV4(
        {
          method: req.method!,
          url: new URL(`http://${req.headers.host}${req.url}`),
          headers: extra,
          payloadHash: sha256Hex(body),
          now: when,
          region: "cn-test-1",
        },
        secret,
      );
      received.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body,
        signatureValid: expected.authorization === auth && req.headers["x-amz-content-sha256"] === sha256Hex(body),
      });
      if (location) res.setHeader("Location", location);
      res.statusCode = reply;
      res.end();
    });
  });
  return {
    server,
    received,
    setReply(status: number, redirect: string | null = null) {
      reply = status;
      location = redirect;
    },
  };
}

describe("S3 avatar storage against a local fake", () => {
  const credentials = { accessKeyId: "TESTKEY", secretAccessKey: "test-secret" };
  const fake = fakeS3(credentials);
  let storage: S3AvatarStorage;
  beforeAll(async () => {
    await new Promise<void>((resolve) => fake.server.listen(0, "127.0.0.1", resolve));
    const { port } = fake.server.address() as AddressInfo;
    storage = new S3AvatarStorage({
      endpoint: `http://127.0.0.1:${port}`,
      bucket: "mochi-avatars",
      region: "cn-test-1",
      ...credentials,
    });
  });
  afterAll(() => new Promise<void>((resolve) => fake.server.close(() => resolve())));

  it("PUTs the WebP under avatar/<random>.webp, signed, and DELETEs it by its public path", async () => {
    fake.setReply(200);
    const image = Buffer.from("RIFF\u0000\u0000\u0000\u0000WEBPVP8 fake");
    const url = await storage.save(image);
    expect(url).toMatch(/^\/avatar\/[0-9a-f]{32}\.webp$/);
    const put = fake.received.at(-1)!;
    expect(put.method).toBe("PUT");
    expect(put.url).toBe(`/mochi-avatars${url}`);
    expect(put.body.equals(image)).toBe(true);
    expect(put.headers["content-type"]).toBe("image/webp");
    expect(put.signatureValid).toBe(true);

    await storage.remove(url);
    const del = fake.received.at(-1)!;
    expect(del.method).toBe("DELETE");
    expect(del.url).toBe(`/mochi-avatars${url}`);
    expect(del.signatureValid).toBe(true);
  });

  it("ignores paths it did not make, and fails on errors without following redirects", async () => {
    const before = fake.received.length;
    await storage.remove("/avatar/../../secrets.webp");
    await storage.remove("https://elsewhere.example/avatar/x.webp");
    expect(fake.received.length).toBe(before);

    fake.setReply(500);
    await expect(storage.save(Buffer.from("x"))).rejects.toThrow(/500/);
    fake.setReply(302, "http://169.254.169.254/latest/meta-data/");
    await expect(storage.save(Buffer.from("x"))).rejects.toThrow(/302/);
    expect(fake.received.every((r) => r.url.startsWith("/mochi-avatars/avatar/"))).toBe(true);
    fake.setReply(404);
    await expect(storage.remove("/avatar/0123456789abcdef0123456789abcdef.webp")).resolves.toBeUndefined();
  });
});

describe("storage configuration", () => {
  it("is the local folder without S3 variables, S3 with all four, an error with some", () => {
    expect(s3SettingsFromEnv({})).toBeNull();
    expect(() => s3SettingsFromEnv({ S3_BUCKET: "avatars" })).toThrow(/together/);
    expect(() =>
      s3SettingsFromEnv({
        S3_ENDPOINT: "ftp://x",
        S3_BUCKET: "avatars",
        S3_ACCESS_KEY_ID: "a",
        S3_SECRET_ACCESS_KEY: "b",
      }),
    ).toThrow(/S3_ENDPOINT/);
    expect(
      s3SettingsFromEnv({
        S3_ENDPOINT: "https://oss.example.com",
        S3_BUCKET: "avatars",
        S3_ACCESS_KEY_ID: "a",
        S3_SECRET_ACCESS_KEY: "b",
      }),
    ).toEqual({
      endpoint: "https://oss.example.com",
      bucket: "avatars",
      accessKeyId: "a",
      secretAccessKey: "b",
      region: "us-east-1",
    });
  });
});

describe("local avatar storage", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "avatars-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("writes under a generated name and removes only names it could have made", async () => {
    const storage = new LocalAvatarStorage(dir);
    const url = await storage.save(Buffer.from("webp"));
    const name = avatarNameOf(url)!;
    expect(readFileSync(path.join(dir, name), "utf8")).toBe("webp");
    const outside = path.join(dir, "..", `keep-${path.basename(dir)}.webp`);
    writeFileSync(outside, "x");
    await storage.remove(`/avatar/../keep-${path.basename(dir)}.webp`);
    expect(existsSync(outside)).toBe(true);
    rmSync(outside);
    await storage.remove(url);
    expect(existsSync(path.join(dir, name))).toBe(false);
    await expect(storage.remove(url)).resolves.toBeUndefined();
  });
});
