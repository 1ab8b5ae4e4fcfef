/**
 * The transcoder reads only the uploaded bytes (decision 070): each container accepted by its
 * first bytes is read by ffprobe and ffmpeg through its own demuxer and the file protocol, so a
 * playlist dressed as a video is never followed; every run names its input format; a run past its
 * time is ended with its whole process group, SIGKILL after the grace.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inputArgs, probeVideo, runFfmpeg, transcodeSteps, VIDEO_LIMITS } from "./ffmpeg";
import { sniffVideoContainer, type VideoDemuxer } from "./video-container";

const FFMPEG = "/usr/bin/ffmpeg";
const FFPROBE = "/usr/bin/ffprobe";
const dir = mkdtempSync(path.join(tmpdir(), "mochi-ffmpeg-"));
afterAll(() => execFileSync("rm", ["-rf", dir]));

/** A one-second test picture with a tone in the given container. */
function made(name: string, args: string[]): string {
  const file = path.join(dir, name);
  if (existsSync(file)) return file;
  execFileSync(FFMPEG, [
    ...["-hide_banner", "-loglevel", "error", "-y"],
    ...["-f", "lavfi", "-i", "testsrc=size=96x64:rate=25:duration=1"],
    ...["-f", "lavfi", "-i", "sine=frequency=440:duration=1"],
    ...["-shortest", ...args, file],
  ]);
  return file;
}

const CONTAINERS: { name: string; args: string[]; demuxer: VideoDemuxer }[] = [
  { name: "clip.mp4", args: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"], demuxer: "mov" },
  { name: "clip.mov", args: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-f", "mov"], demuxer: "mov" },
  { name: "clip.webm", args: ["-c:v", "libvpx", "-c:a", "libvorbis"], demuxer: "matroska" },
  { name: "clip.mkv", args: ["-c:v", "libx264", "-c:a", "aac", "-f", "matroska"], demuxer: "matroska" },
  { name: "clip.avi", args: ["-c:v", "mpeg4", "-c:a", "mp2"], demuxer: "avi" },
  { name: "clip.ts", args: ["-c:v", "mpeg2video", "-c:a", "mp2", "-f", "mpegts"], demuxer: "mpegts" },
  {
    name: "clip.m2ts",
    args: ["-c:v", "mpeg2video", "-c:a", "mp2", "-f", "mpegts", "-mpegts_m2ts_mode", "1"],
    demuxer: "mpegts",
  },
  { name: "clip.mpg", args: ["-c:v", "mpeg1video", "-c:a", "mp2", "-f", "mpeg"], demuxer: "mpeg" },
];

describe("the container of a video, by its bytes", () => {
  it.each(CONTAINERS)("$name is read with the $demuxer demuxer, by ffprobe and through every step", async (c) => {
    const file = made(c.name, c.args);
    expect(sniffVideoContainer(readFileSync(file).subarray(0, 4096))).toBe(c.demuxer);
    const probe = await probeVideo(FFPROBE, file, c.demuxer);
    expect(probe?.durationSeconds).toBeGreaterThan(0.5);

    const work = path.join(dir, `work-${c.name}`);
    mkdirSync(work);
    for (const step of transcodeSteps({ file, demuxer: c.demuxer, durationSeconds: 1 }, work, VIDEO_LIMITS)) {
      const run = await runFfmpeg(FFMPEG, step.args, {
        cwd: work,
        signal: new AbortController().signal,
        timeoutMs: 60_000,
        graceMs: 1000,
      });
      expect(run, step.output).toMatchObject({ code: 0, timedOut: false, aborted: false });
      expect(statSync(step.output).size).toBeGreaterThan(0);
    }
    expect(readFileSync(path.join(work, "index.m3u8"), "utf8")).toContain("#EXT-X-ENDLIST");
  });

  it("takes a QuickTime file that opens with a free, wide or mdat box instead of ftyp", async () => {
    const mov = readFileSync(made("plain.mov", ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-f", "mov"]));
    // The ftyp box turned into a free box of the same size: the offsets inside stay right.
    const free = Buffer.from(mov);
    free.write("free", 4, "latin1");
    const file = path.join(dir, "free-first.mov");
    writeFileSync(file, free);
    expect(sniffVideoContainer(free)).toBe("mov");
    expect((await probeVideo(FFPROBE, file, "mov"))?.durationSeconds).toBeGreaterThan(0.5);
    const box = (size: number, type: string) => {
      const b = Buffer.alloc(16);
      b.writeUInt32BE(size, 0);
      b.write(type, 4, "latin1");
      return b;
    };
    for (const type of ["wide", "mdat", "moov", "skip"]) expect(sniffVideoContainer(box(8, type))).toBe("mov");
    // A media data box that runs to the end of the file, and one with a 64-bit size.
    expect(sniffVideoContainer(box(0, "mdat"))).toBe("mov");
    const large = box(1, "mdat");
    large.writeBigUInt64BE(5n * 2n ** 32n, 8);
    expect(sniffVideoContainer(large)).toBe("mov");
  });

  it("refuses what is no video container: playlists, lists, text, pictures, empty or cut-short headers", () => {
    const jpeg = execFileSync(FFMPEG, [
      ...["-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=64x64:duration=1"],
      ...["-frames:v", "1", "-f", "image2pipe", "-c:v", "mjpeg", "pipe:1"],
    ]);
    const mp4 = readFileSync(made(CONTAINERS[0]!.name, CONTAINERS[0]!.args));
    const heic = Buffer.from(mp4.subarray(0, 64));
    heic.write("heic", 8, "latin1");
    const refused: [string, Buffer][] = [
      ["HLS playlist", Buffer.from("#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n/etc/passwd\n#EXT-X-ENDLIST\n")],
      ["ffconcat", Buffer.from("ffconcat version 1.0\nfile '/data/uploads/lessons/a/index.mp4'\n")],
      ["concat list", Buffer.from("file '/data/uploads/lessons/a/index.mp4'\nfile 'b.mp4'\n")],
      [
        "SDP",
        Buffer.from("v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=x\r\nc=IN IP4 127.0.0.1\r\nm=video 5004 RTP/AVP 96\r\n"),
      ],
      ["text", Buffer.from("这不是视频".repeat(50))],
      ["HTML", Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>")],
      ["JPEG", jpeg],
      ["empty", Buffer.alloc(0)],
      ["a cut-short box header", mp4.subarray(0, 10)],
      ["a cut-short ftyp box", mp4.subarray(0, 20)],
      ["a HEIF picture", heic],
      ["a RIFF that is no AVI (WAV)", Buffer.from("RIFF\x24\x00\x00\x00WAVEfmt ", "latin1")],
      [
        "EBML of another document type",
        Buffer.from("1a45dfa3a34286810142f7810142f2810442f381084282886d6b7a6661727378", "hex"),
      ],
    ];
    for (const [what, bytes] of refused) expect(sniffVideoContainer(bytes), what).toBeNull();
  });
});

describe("ffmpeg and ffprobe read only the file they are given", () => {
  it("names the input's demuxer and the file protocol in every step; only the first reads the upload", () => {
    const upload = "/data/uploads/incoming/x.upload";
    const steps = transcodeSteps({ file: upload, demuxer: "matroska", durationSeconds: 60 }, "/work", VIDEO_LIMITS);
    expect(steps).toHaveLength(3);
    for (const [index, { args }] of steps.entries()) {
      const inputs = args.flatMap((a, i) => (a === "-i" ? [i] : []));
      expect(inputs).toHaveLength(1);
      const before = args.slice(0, inputs[0]);
      expect(before).toEqual(expect.arrayContaining(["-protocol_whitelist", "file"]));
      expect(before[before.indexOf("-protocol_whitelist") + 1]).toBe("file");
      expect(before[before.indexOf("-f") + 1]).toBe(index === 0 ? "matroska" : "mov");
      expect(args[inputs[0]! + 1]).toBe(index === 0 ? `file:${upload}` : "file:/work/index.mp4");
      for (const follows of ["hls", "concat", "ffconcat", "sdp", "rtp", "http", "https", "tcp", "subfile"])
        expect(before, follows).not.toContain(follows);
    }
    const first = steps[0]!.args;
    expect(first[first.indexOf("-t") + 1]).toBe(String(VIDEO_LIMITS.maxSeconds));
    expect(first[first.indexOf("-fs") + 1]).toBe(String(VIDEO_LIMITS.maxOutputBytes));
    expect(inputArgs("mov", "/a.mp4")).toEqual(expect.arrayContaining(["-enable_drefs", "0"]));
  });

  it("does not follow a playlist that names a file on the disk, even one that opens with a box", async () => {
    const clip = made(CONTAINERS[0]!.name, CONTAINERS[0]!.args);
    const playlist = `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:1,\n${clip}\n#EXT-X-ENDLIST\n`;
    const plain = path.join(dir, "playlist.mp4");
    writeFileSync(plain, playlist);
    // Left to guess, ffprobe takes it for HLS and reads the clip it names: what this guards against.
    const guessed = execFileSync(FFPROBE, [
      "-v",
      "error",
      "-show_entries",
      "format=format_name",
      "-of",
      "csv=p=0",
      plain,
    ]);
    expect(guessed.toString().trim()).toBe("hls");
    const boxed = path.join(dir, "boxed-playlist.mp4");
    writeFileSync(boxed, Buffer.concat([Buffer.from([0, 0, 0, 8]), Buffer.from(`free${playlist}`)]));
    expect(sniffVideoContainer(readFileSync(boxed))).toBe("mov");
    expect(await probeVideo(FFPROBE, boxed, "mov")).toBeNull();
    for (const demuxer of ["mov", "matroska", "mpegts", "avi", "mpeg"] as const)
      expect(await probeVideo(FFPROBE, plain, demuxer), demuxer).toBeNull();
  });
});

describe("a run past its time", () => {
  it("is sent SIGTERM, then its whole process group SIGKILL after the grace", async () => {
    // Stands in for an ffmpeg that ignores SIGTERM and has a child of its own.
    const stubborn = path.join(dir, "stubborn.sh");
    const pidFile = path.join(dir, "stubborn.pid");
    writeFileSync(stubborn, `#!/bin/sh\ntrap '' TERM\nsleep 30 &\necho $! > '${pidFile}'\nwait\n`);
    chmodSync(stubborn, 0o755);
    const started = Date.now();
    const run = await runFfmpeg(stubborn, [], {
      cwd: dir,
      signal: new AbortController().signal,
      timeoutMs: 300,
      graceMs: 400,
    });
    const took = Date.now() - started;
    expect(run).toMatchObject({ timedOut: true, aborted: false, code: null });
    expect(took).toBeGreaterThanOrEqual(650);
    expect(took).toBeLessThan(5000);
    // The child of the run went with it.
    const child = Number(readFileSync(pidFile, "utf8"));
    await expect
      .poll(() => existsSync(`/proc/${child}`) && !/\) Z /.test(readFileSync(`/proc/${child}/stat`, "utf8")))
      .toBe(false);
  });

  it("is stopped at once when its signal aborts, and never started when the time is already gone", async () => {
    const controller = new AbortController();
    const running = runFfmpeg(
      FFMPEG,
      ["-f", "lavfi", "-i", "testsrc=size=320x240:rate=25:duration=600", "-f", "null", "-"],
      { cwd: dir, signal: controller.signal, timeoutMs: 60_000, graceMs: 1000 },
    );
    setTimeout(() => controller.abort(), 300);
    expect(await running).toMatchObject({ aborted: true, timedOut: false });
    const late = await runFfmpeg(FFMPEG, ["-version"], {
      cwd: dir,
      signal: new AbortController().signal,
      timeoutMs: 0,
      graceMs: 1000,
    });
    expect(late).toMatchObject({ timedOut: true, code: null });
  });
});
