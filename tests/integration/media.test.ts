/**
 * The shipped sample videos (/media/video) and the demo broadcaster (/broadcast) on the built app:
 * range requests, content types, caching, and a live playlist whose segments really play.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleForStream } from "../../server/broadcaster";
import { liveStreamUrl, sampleVideoKeys, videoSources } from "../../shared/media";
import { BROWSER_UA, testApp } from "./helpers";

const mediaDir = path.resolve("media");
let server: Server;
let base: string;
let dispose: () => Promise<void>;

beforeAll(async () => {
  const created = await testApp();
  dispose = created.dispose;
  server = createServer(created.app);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await dispose();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(`${base}${url}`, { headers: { "User-Agent": BROWSER_UA, ...headers }, redirect: "manual" });

describe("sample videos on disk", () => {
  it.each(sampleVideoKeys)(
    "%s: MP4, a 10-segment VOD playlist, a poster and captions, small enough to commit",
    (key) => {
      const dir = path.join(mediaDir, "video", key);
      const files = readdirSync(dir).sort();
      expect(files).toEqual([
        "captions.vtt",
        "index.m3u8",
        "index.mp4",
        "poster.jpg",
        ...Array.from({ length: 10 }, (_, i) => `seg-${String(i).padStart(3, "0")}.ts`),
      ]);
      const playlist = readFileSync(path.join(dir, "index.m3u8"), "utf8");
      expect(playlist).toContain("#EXT-X-PLAYLIST-TYPE:VOD");
      expect(playlist).toContain("#EXT-X-TARGETDURATION:3");
      expect(playlist.trim().endsWith("#EXT-X-ENDLIST")).toBe(true);
      const durations = [...playlist.matchAll(/^#EXTINF:([\d.]+),/gm)].map((m) => Number(m[1]));
      expect(durations).toHaveLength(10);
      expect(durations.reduce((a, b) => a + b, 0)).toBeCloseTo(30, 1);
      // The transcript as WebVTT captions, cues in order up to the end of the video.
      const vtt = readFileSync(path.join(dir, "captions.vtt"), "utf8");
      expect(vtt.startsWith("WEBVTT\n")).toBe(true);
      const ends = [...vtt.matchAll(/^\d\d:\d\d\.\d{3} --> (\d\d):(\d\d\.\d{3})$/gm)].map(
        (m) => Number(m[1]) * 60 + Number(m[2]),
      );
      expect(ends.length).toBeGreaterThanOrEqual(4);
      expect(ends).toEqual([...ends].sort((a, b) => a - b));
      expect(ends.at(-1)).toBeCloseTo(30, 1);
      expect(statSync(path.join(dir, "index.mp4")).size).toBeLessThanOrEqual(700 * 1024);
      const total = files.reduce((sum, f) => sum + statSync(path.join(dir, f)).size, 0);
      expect(total).toBeLessThanOrEqual(1.5 * 1024 * 1024);
    },
  );
});

describe("/media/video", () => {
  it("serves the MP4 in ranges, as video/mp4, cached for a day", async () => {
    const { mp4 } = videoSources("yong");
    const size = statSync(path.join(mediaDir, "video/yong/index.mp4")).size;
    const res = await get(mp4, { Range: "bytes=0-1023" });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-type")).toBe("video/mp4");
    expect(res.headers.get("content-range")).toBe(`bytes 0-1023/${size}`);
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("cache-control")).toBe("public, max-age=86400");
    const head = Buffer.from(await res.arrayBuffer());
    expect(head.length).toBe(1024);
    expect(head.subarray(4, 8).toString("latin1")).toBe("ftyp");
    // faststart: the index (moov) comes before the media data.
    expect(head.indexOf("moov", 0, "latin1")).toBeGreaterThan(0);

    const tail = await get(mp4, { Range: "bytes=-100" });
    expect(tail.status).toBe(206);
    expect(tail.headers.get("content-range")).toBe(`bytes ${size - 100}-${size - 1}/${size}`);
    await tail.arrayBuffer();

    const whole = await get(mp4);
    expect(whole.status).toBe(200);
    expect(Number(whole.headers.get("content-length"))).toBe(size);
    await whole.arrayBuffer();
  });

  it("serves the HLS rendition and the poster with their types", async () => {
    const { hls, poster } = videoSources("heng");
    const playlist = await get(hls);
    expect(playlist.status).toBe(200);
    expect(playlist.headers.get("content-type")).toMatch(/^application\/vnd\.apple\.mpegurl/);
    expect(playlist.headers.get("cache-control")).toBe("public, max-age=86400");
    expect(await playlist.text()).toContain("seg-000.ts");
    const seg = await get("/media/video/heng/seg-000.ts");
    expect(seg.status).toBe(200);
    expect(seg.headers.get("content-type")).toBe("video/mp2t");
    expect(new Uint8Array(await seg.arrayBuffer())[0]).toBe(0x47); // MPEG-TS sync byte
    const jpg = await get(poster);
    expect(jpg.status).toBe(200);
    expect(jpg.headers.get("content-type")).toBe("image/jpeg");
    await jpg.arrayBuffer();
  });

  it("answers a missing file with a plain 404, never a page", async () => {
    for (const url of ["/media/video/yong/nope.mp4", "/media/video/nope/index.m3u8", "/media/video/yong/.hidden"]) {
      const res = await get(url, { Accept: "text/html" });
      expect(res.status, url).toBe(404);
      expect(res.headers.get("content-type"), url).toMatch(/^text\/plain/);
      expect(await res.text()).toBe("Not Found");
    }
    // No folder listings either.
    const folder = await get("/media/video/yong/", { Accept: "text/html" });
    expect([403, 404]).toContain(folder.status);
    expect(folder.headers.get("content-type")).toMatch(/^text\/plain/);
    await folder.arrayBuffer();
  });
});

describe("/broadcast (demo broadcaster)", () => {
  it("serves a live playlist whose segments play as MPEG-TS", async () => {
    const url = liveStreamUrl("demo-live");
    expect(url).toBe("/broadcast/demo-live/index.m3u8");
    const res = await get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/vnd\.apple\.mpegurl/);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const text = await res.text();
    expect(text.startsWith("#EXTM3U\n")).toBe(true);
    expect(text).not.toContain("#EXT-X-ENDLIST");
    expect(text).not.toContain("#EXT-X-PLAYLIST-TYPE");
    expect(text).toMatch(/^#EXT-X-DISCONTINUITY-SEQUENCE:\d+$/m);
    const uris = text.split("\n").filter((l) => l && !l.startsWith("#"));
    expect(uris).toHaveLength(4);
    const sequence = Number(/^#EXT-X-MEDIA-SEQUENCE:(\d+)$/m.exec(text)?.[1]);
    expect(uris).toEqual([0, 1, 2, 3].map((i) => `seg/${sequence + i}.ts`));

    const sample = sampleForStream("demo-live");
    for (const uri of uris) {
      const seg = await get(new URL(uri, `${base}${url}`).pathname);
      expect(seg.status, uri).toBe(200);
      expect(seg.headers.get("content-type")).toBe("video/mp2t");
      expect(seg.headers.get("cache-control")).toBe("public, max-age=60");
      const body = new Uint8Array(await seg.arrayBuffer());
      expect(body[0]).toBe(0x47);
      const m = Number(/(\d+)\.ts$/.exec(uri)?.[1]);
      const file = path.join(mediaDir, "video", sample, `seg-${String(m % 10).padStart(3, "0")}.ts`);
      expect(body.length).toBe(statSync(file).size);
    }
  });

  it("refuses segments of the future and unknown paths", async () => {
    const text = await (await get(liveStreamUrl("demo-live"))).text();
    const last = Number(/seg\/(\d+)\.ts\s*$/.exec(text)?.[1]);
    expect((await get(`/broadcast/demo-live/seg/${last + 5}.ts`)).status).toBe(404);
    expect((await get("/broadcast/demo-live/seg/1.ts")).status).toBe(404);
    expect((await get("/broadcast/No_Key/index.m3u8")).status).toBe(404);
  });

  it("runs on the injected clock", async () => {
    const m = 7_000_000;
    const clocked = await testApp({}, { now: () => m * 3000 + 10 });
    const srv = createServer(clocked.app);
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    try {
      const at = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
      const text = await (await fetch(`${at}/broadcast/demo-live/index.m3u8`)).text();
      expect(text).toContain(`#EXT-X-MEDIA-SEQUENCE:${m - 3}\n`);
      expect(text).toContain(`#EXT-X-DISCONTINUITY\n#EXT-X-PROGRAM-DATE-TIME:`);
      const seg = await fetch(`${at}/broadcast/demo-live/seg/${m}.ts`);
      expect(seg.status).toBe(200);
      await seg.arrayBuffer();
      expect((await fetch(`${at}/broadcast/demo-live/seg/${m + 1}.ts`)).status).toBe(404);
    } finally {
      await new Promise<void>((r) => srv.close(() => r()));
      await clocked.dispose();
    }
  });
});
