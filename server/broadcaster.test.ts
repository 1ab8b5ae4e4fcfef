import path from "node:path";
import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { sampleVideoKeys } from "../shared/media";
import {
  createBroadcaster,
  currentSequence,
  defaultLiveLoop,
  livePlaylist,
  liveSegmentIndex,
  sampleForStream,
  sampleSegmentFile,
} from "./broadcaster";

const D = defaultLiveLoop.segmentSeconds;
const N = defaultLiveLoop.segmentCount;
/** A moment 1.2 s into segment m. */
const during = (m: number) => m * D * 1000 + 1200;

interface Entry {
  sequence: number;
  /** Discontinuity sequence number of the segment, as a player counts it. */
  discontinuity: number;
  duration: number;
  uri: string;
}

/** Reads a live playlist the way a player does (RFC 8216 §6.3). */
function parse(text: string) {
  const lines = text.trim().split("\n");
  const tag = (name: string) => lines.find((l) => l.startsWith(`#${name}:`))?.slice(name.length + 2);
  const mediaSequence = Number(tag("EXT-X-MEDIA-SEQUENCE"));
  let discontinuity = Number(tag("EXT-X-DISCONTINUITY-SEQUENCE"));
  const entries: Entry[] = [];
  let duration = Number.NaN;
  for (const line of lines) {
    if (line === "#EXT-X-DISCONTINUITY") discontinuity++;
    else if (line.startsWith("#EXTINF:")) duration = Number.parseFloat(line.slice(8));
    else if (!line.startsWith("#")) {
      entries.push({ sequence: mediaSequence + entries.length, discontinuity, duration, uri: line });
    }
  }
  return { lines, tag, mediaSequence, entries };
}

describe("live playlist", () => {
  it("numbers segments on the wall clock: m = floor(now / D)", () => {
    expect(currentSequence(0)).toBe(0);
    expect(currentSequence(2999)).toBe(0);
    expect(currentSequence(3000)).toBe(1);
    const now = Date.UTC(2026, 4, 1, 8, 0, 0);
    expect(currentSequence(now)).toBe(Math.floor(now / 1000 / D));
  });

  it("lists the last 4 segments m-3 … m, live (no ENDLIST, no PLAYLIST-TYPE)", () => {
    const m = 12_345;
    const p = parse(livePlaylist(during(m)));
    expect(p.lines[0]).toBe("#EXTM3U");
    expect(p.tag("EXT-X-TARGETDURATION")).toBe(String(D));
    expect(p.mediaSequence).toBe(m - 3);
    expect(p.entries.map((e) => e.sequence)).toEqual([m - 3, m - 2, m - 1, m]);
    expect(p.entries.map((e) => e.uri)).toEqual([m - 3, m - 2, m - 1, m].map((s) => `seg/${s}.ts`));
    for (const e of p.entries) expect(e.duration).toBe(D);
    expect(p.lines).not.toContain("#EXT-X-ENDLIST");
    expect(p.lines.some((l) => l.startsWith("#EXT-X-PLAYLIST-TYPE"))).toBe(false);
    // The window only moves when a segment boundary passes.
    expect(livePlaylist(m * D * 1000)).toBe(livePlaylist(m * D * 1000 + D * 1000 - 1));
    expect(livePlaylist((m + 1) * D * 1000)).not.toBe(livePlaylist(m * D * 1000));
  });

  it("marks each new pass of the loop with EXT-X-DISCONTINUITY", () => {
    // Segments 128 129 | 130 131: the loop wraps before 130.
    const text = livePlaylist(during(131));
    const p = parse(text);
    expect(p.entries.map((e) => e.sequence)).toEqual([128, 129, 130, 131]);
    expect(text).toContain("seg/129.ts\n#EXT-X-DISCONTINUITY\n");
    expect(p.lines.filter((l) => l === "#EXT-X-DISCONTINUITY")).toHaveLength(1);
    // Loop starts before 128: 10, 20, … 120.
    expect(p.tag("EXT-X-DISCONTINUITY-SEQUENCE")).toBe("12");
    expect(p.entries.map((e) => e.discontinuity)).toEqual([12, 12, 13, 13]);

    // No wrap inside the window: no tag, and the count is unchanged.
    const inside = parse(livePlaylist(during(125)));
    expect(inside.lines).not.toContain("#EXT-X-DISCONTINUITY");
    expect(inside.tag("EXT-X-DISCONTINUITY-SEQUENCE")).toBe("12");

    // The first listed segment starts a loop: its tag stays in the list, not in the count.
    const first = parse(livePlaylist(during(123)));
    expect(first.entries[0]?.sequence).toBe(120);
    expect(first.lines.indexOf("#EXT-X-DISCONTINUITY")).toBeLessThan(first.lines.indexOf("seg/120.ts"));
    expect(first.tag("EXT-X-DISCONTINUITY-SEQUENCE")).toBe("11");
    expect(first.entries[0]?.discontinuity).toBe(12);
  });

  it("gives every segment the same discontinuity number on every reload", () => {
    const seen = new Map<number, number>();
    for (let m = 0; m < 5 * N; m++) {
      const p = parse(livePlaylist(during(m)));
      expect(p.entries.length).toBe(Math.min(m + 1, defaultLiveLoop.window));
      expect(p.entries.at(-1)?.sequence).toBe(m);
      for (const e of p.entries) {
        expect(e.discontinuity).toBe(Math.floor(e.sequence / N));
        const before = seen.get(e.sequence);
        if (before !== undefined) expect(e.discontinuity).toBe(before);
        seen.set(e.sequence, e.discontinuity);
      }
    }
  });

  it("starts at segment 0 without a discontinuity at the epoch", () => {
    const p = parse(livePlaylist(0));
    expect(p.entries.map((e) => e.sequence)).toEqual([0]);
    expect(p.tag("EXT-X-DISCONTINUITY-SEQUENCE")).toBe("0");
    expect(p.lines).not.toContain("#EXT-X-DISCONTINUITY");
  });
});

describe("live segments", () => {
  const m = 50_000_007;
  const now = during(m);

  it("maps media sequence m to sample segment m mod N", () => {
    expect(liveSegmentIndex(m, now)).toBe(m % N);
    expect(liveSegmentIndex(m - 1, now)).toBe((m - 1) % N);
    expect(liveSegmentIndex(m - 7, now)).toBe((m - 7) % N);
  });

  it("refuses a segment of the future", () => {
    expect(liveSegmentIndex(m + 1, now)).toBeNull();
    expect(liveSegmentIndex(m + 1000, now)).toBeNull();
  });

  it("refuses a segment older than about a minute", () => {
    const keep = defaultLiveLoop.keepSeconds / D;
    expect(liveSegmentIndex(m - keep, now)).toBe((m - keep) % N);
    expect(liveSegmentIndex(m - keep - 1, now)).toBeNull();
    expect(liveSegmentIndex(0, now)).toBeNull();
  });

  it("refuses numbers that are not sequence numbers", () => {
    expect(liveSegmentIndex(-1, now)).toBeNull();
    expect(liveSegmentIndex(1.5, now)).toBeNull();
    expect(liveSegmentIndex(Number.NaN, now)).toBeNull();
    expect(liveSegmentIndex(2 ** 60, now)).toBeNull();
  });

  it("picks the sample by a stable hash of the stream key", () => {
    expect(sampleForStream("demo-live")).toBe(sampleForStream("demo-live"));
    const picked = new Set<string>();
    for (let i = 0; i < 60; i++) {
      const key = sampleForStream(`room-${i}`);
      expect(sampleVideoKeys).toContain(key);
      picked.add(key);
    }
    expect(picked.size).toBe(sampleVideoKeys.length);
    expect(sampleSegmentFile("/m", "yong", 7)).toBe(path.join("/m", "video", "yong", "seg-007.ts"));
  });
});

describe("broadcaster router", () => {
  const m = 9_000_004;
  let clock = during(m);
  const app = express();
  app.use("/broadcast", createBroadcaster({ mediaDir: path.resolve("media"), now: () => clock }));

  it("serves the playlist of the injected clock, uncached", async () => {
    clock = during(m);
    const res = await request(app).get("/broadcast/demo-live/index.m3u8");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/vnd\.apple\.mpegurl/);
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(res.text).toContain(`#EXT-X-MEDIA-SEQUENCE:${m - 3}\n`);
    expect(res.text.trim().split("\n").at(-1)).toBe(`seg/${m}.ts`);
  });

  it("serves listed segments and refuses future and expired ones", async () => {
    clock = during(m);
    const seg = await request(app).get(`/broadcast/demo-live/seg/${m}.ts`).buffer(true);
    expect(seg.status).toBe(200);
    expect(seg.headers["content-type"]).toBe("video/mp2t");
    expect(seg.headers["cache-control"]).toBe("public, max-age=60");
    expect(Number(seg.headers["content-length"])).toBeGreaterThan(1000);
    expect((await request(app).get(`/broadcast/demo-live/seg/${m + 1}.ts`)).status).toBe(404);
    expect((await request(app).get(`/broadcast/demo-live/seg/${m - 21}.ts`)).status).toBe(404);
    // The clock moves on: the next segment becomes available.
    clock = during(m + 1);
    expect((await request(app).get(`/broadcast/demo-live/seg/${m + 1}.ts`)).status).toBe(200);
  });

  it("answers 404 for bad stream keys and anything else under /broadcast", async () => {
    for (const url of [
      "/broadcast/AB/index.m3u8",
      "/broadcast/x/index.m3u8",
      `/broadcast/${"a".repeat(41)}/index.m3u8`,
      "/broadcast/demo_live/index.m3u8",
      "/broadcast/demo-live/seg/01.ts",
      "/broadcast/demo-live/seg/abc.ts",
      "/broadcast/demo-live/seg-000.ts",
      "/broadcast/demo-live/",
      "/broadcast/live/1.m3u8",
    ]) {
      const res = await request(app).get(url);
      expect(res.status, url).toBe(404);
      expect(res.headers["content-type"]).toMatch(/^text\/plain/);
    }
  });

  it("answers 404 when the sample files are missing", async () => {
    const bare = express();
    bare.use("/broadcast", createBroadcaster({ mediaDir: path.resolve("no-such-media"), now: () => during(m) }));
    expect((await request(bare).get(`/broadcast/demo-live/seg/${m}.ts`)).status).toBe(404);
  });
});
