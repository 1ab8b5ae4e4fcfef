/**
 * How lesson videos meet ffmpeg and ffprobe (docs/decisions/043, 070). Every input is named with
 * its demuxer (`-f`, from the bytes: `video-container.ts`), read through the `file` protocol only,
 * and none of these demuxers follows references to other files, so a playlist, concat list or
 * SDP file dressed as an MP4 is never opened as one. Each run is bounded: the video's length
 * (`-t`), the MP4's size (`-fs`), the CPU time (`-timelimit`) and the wall time (the process group
 * is sent SIGTERM, then SIGKILL); it runs in the job's own working folder, at the lowest priority.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { availableParallelism, constants, setPriority } from "node:os";
import path from "node:path";
import { LESSON_VIDEO_MAX_SECONDS } from "../../../shared/contracts/admin-catalogue";
import type { VideoDemuxer } from "./video-container";

/** HLS segment length, seconds. */
export const HLS_SEGMENT_SECONDS = 6;

export interface VideoLimits {
  /** The longest lesson video, seconds: refused at upload, and ffmpeg stops there. */
  maxSeconds: number;
  /** The largest transcoded MP4, bytes. */
  maxOutputBytes: number;
  /** Wall time of a whole job: this much, plus `runMsPerVideoSecond` for each second of video. */
  baseRunMs: number;
  runMsPerVideoSecond: number;
  /** Between SIGTERM and SIGKILL for a run past its time. */
  killGraceMs: number;
}

export const VIDEO_LIMITS: VideoLimits = {
  maxSeconds: LESSON_VIDEO_MAX_SECONDS,
  maxOutputBytes: 4 * 1024 ** 3,
  baseRunMs: 10 * 60_000,
  runMsPerVideoSecond: 3000,
  killGraceMs: 5000,
};

/** How long a job of this video may run, milliseconds. */
export const runBudgetMs = (limits: VideoLimits, durationSeconds: number) =>
  limits.baseRunMs + limits.runMsPerVideoSecond * durationSeconds;

function spanText(seconds: number): string {
  if (seconds >= 3600) return `${+(seconds / 3600).toFixed(1)} 小时`;
  if (seconds >= 60) return `${+(seconds / 60).toFixed(1)} 分钟`;
  return `${+seconds.toFixed(1)} 秒`;
}

function sizeText(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${+(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 ** 2) return `${+(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${Math.ceil(bytes / 1024)} KB`;
}

export const videoTooLongMessage = (limits: VideoLimits) =>
  `视频太长：课时视频最长 ${spanText(limits.maxSeconds)}，请剪短或分成几节课上传。`;
export const videoTooLargeMessage = (limits: VideoLimits) =>
  `转码后的视频超过 ${sizeText(limits.maxOutputBytes)}，已停止。请剪短视频或降低分辨率后重新上传。`;
export const videoTimedOutMessage = (budgetMs: number) =>
  `视频转码超过了允许的时间（${spanText(budgetMs / 1000)}），已停止。请剪短视频或降低分辨率后重新上传。`;

/** The input of a run: its demuxer named, the file protocol only, a QuickTime file's references off. */
export function inputArgs(demuxer: VideoDemuxer, file: string): string[] {
  return [
    ...["-f", demuxer, "-protocol_whitelist", "file"],
    // Off by default in ffmpeg; said here so that no default can ever turn it on.
    ...(demuxer === "mov" ? ["-enable_drefs", "0"] : []),
    ...["-i", `file:${file}`],
  ];
}

/** Codecs of still pictures: a JPEG or PNG has a "video" stream to ffprobe, but is no video. */
const STILL_CODECS = new Set(["mjpeg", "png", "bmp", "gif", "webp", "tiff", "jpeg2000", "ansi", "tty", "text"]);

/** The duration of a real video file (a video stream of moving pictures), or null. */
export function probeVideo(
  ffprobe: string,
  file: string,
  demuxer: VideoDemuxer,
): Promise<{ durationSeconds: number } | null> {
  return new Promise((resolve) => {
    execFile(
      ffprobe,
      ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", ...inputArgs(demuxer, file)],
      { timeout: 60_000, maxBuffer: 4 * 2 ** 20, killSignal: "SIGKILL" },
      (error, stdout) => {
        if (error) return resolve(null);
        try {
          const info = JSON.parse(stdout) as {
            streams?: {
              codec_type?: string;
              codec_name?: string;
              duration?: string;
              disposition?: { attached_pic?: number };
            }[];
            format?: { duration?: string };
          };
          const video = (info.streams ?? []).find(
            (s) => s.codec_type === "video" && !STILL_CODECS.has(s.codec_name ?? "") && !s.disposition?.attached_pic,
          );
          const duration = Number(info.format?.duration ?? video?.duration);
          resolve(video && Number.isFinite(duration) && duration > 0 ? { durationSeconds: duration } : null);
        } catch {
          resolve(null);
        }
      },
    );
  });
}

export interface TranscodeStep {
  args: string[];
  /** The file the step makes. */
  output: string;
  /** The share of the job's progress the step covers, percent. */
  from: number;
  to: number;
}

/**
 * The job's three runs, all inside `work`: the upload encoded once into an MP4 (H.264 + AAC, at
 * most 720 lines, key frames every segment's length, moov first), then that MP4 cut into HLS
 * segments without encoding again, then a poster from it. Only the first reads the upload.
 */
export function transcodeSteps(
  source: { file: string; demuxer: VideoDemuxer; durationSeconds: number },
  work: string,
  limits: VideoLimits,
): TranscodeStep[] {
  const mp4 = path.join(work, "index.mp4");
  const playlist = path.join(work, "index.m3u8");
  const poster = path.join(work, "poster.jpg");
  return [
    {
      output: mp4,
      from: 0,
      to: 90,
      args: [
        ...inputArgs(source.demuxer, source.file),
        ...["-map", "0:v:0", "-map", "0:a:0?"],
        ...["-vf", "scale=-2:'trunc(min(720,ih)/2)*2'"],
        ...["-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-profile:v", "main", "-pix_fmt", "yuv420p"],
        ...["-force_key_frames", `expr:gte(t,n_forced*${HLS_SEGMENT_SECONDS})`],
        ...["-c:a", "aac", "-b:a", "128k", "-ac", "2"],
        ...["-t", String(limits.maxSeconds), "-fs", String(limits.maxOutputBytes)],
        ...["-movflags", "+faststart", "-f", "mp4", mp4],
      ],
    },
    {
      output: playlist,
      from: 90,
      to: 97,
      args: [
        ...inputArgs("mov", mp4),
        ...["-map", "0", "-c", "copy", "-f", "hls", "-hls_time", String(HLS_SEGMENT_SECONDS)],
        ...["-hls_playlist_type", "vod", "-hls_segment_filename", path.join(work, "seg-%03d.ts"), playlist],
      ],
    },
    {
      output: poster,
      from: 97,
      to: 99,
      args: [
        ...["-ss", String(Math.min(1, source.durationSeconds / 2))],
        ...inputArgs("mov", mp4),
        ...["-frames:v", "1", "-q:v", "3", "-f", "image2", "-update", "1", poster],
      ],
    },
  ];
}

export interface FfmpegRun {
  code: number | null;
  /** Stopped from outside (the process shutting down, the job's lease lost). */
  aborted: boolean;
  /** Killed past its wall time, or stopped by its CPU time limit. */
  timedOut: boolean;
  /** The seconds of output written when it ended. */
  seconds: number;
  stderr: string;
}

/** Sends a signal to the run's whole process group (ffmpeg is its leader); gone already is fine. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // the group has already exited
  }
}

/**
 * Runs ffmpeg with `-progress pipe:1`, telling the seconds of output written: in `cwd`, in its own
 * process group at the lowest priority, killed at once on `signal`, and past `timeoutMs` sent
 * SIGTERM, then SIGKILL after `graceMs`. Its CPU time is capped at the same time on every core.
 */
export function runFfmpeg(
  ffmpeg: string,
  args: string[],
  options: { cwd: string; signal: AbortSignal; timeoutMs: number; graceMs: number },
  onSeconds: (seconds: number) => void = () => {},
): Promise<FfmpegRun> {
  const { cwd, signal, timeoutMs, graceMs } = options;
  return new Promise((resolve) => {
    if (signal.aborted || timeoutMs <= 0)
      return resolve({ code: null, aborted: signal.aborted, timedOut: !signal.aborted, seconds: 0, stderr: "" });
    const cpuSeconds = Math.max(1, Math.ceil((timeoutMs / 1000) * availableParallelism()));
    const child: ChildProcess = spawn(
      ffmpeg,
      ["-hide_banner", "-nostdin", "-y", "-nostats", "-progress", "pipe:1", "-timelimit", String(cpuSeconds), ...args],
      { cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      // Before ffmpeg starts its encoding threads, which take the priority of the thread that makes them.
      if (child.pid) setPriority(child.pid, constants.priority.PRIORITY_LOW);
    } catch {
      // it has already exited
    }
    let stderr = "";
    let pending = "";
    let seconds = 0;
    let timedOut = false;
    let graceTimer: NodeJS.Timeout | undefined;
    const kill = () => signalGroup(child, "SIGKILL");
    const timer = setTimeout(() => {
      timedOut = true;
      signalGroup(child, "SIGTERM");
      graceTimer = setTimeout(kill, graceMs);
    }, timeoutMs);
    signal.addEventListener("abort", kill, { once: true });
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const match = /^out_time_us=(\d+)/.exec(line.trim());
        if (match) onSeconds((seconds = Number(match[1]) / 1e6));
      }
    });
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-8000);
    });
    child.on("error", (err) => {
      stderr += `\n${err.message}`;
    });
    child.on("close", (code, killedBy) => {
      clearTimeout(timer);
      clearTimeout(graceTimer);
      signal.removeEventListener("abort", kill);
      // ffmpeg ends itself at its CPU limit (SIGXCPU), saying so on stderr.
      const cpuLimit = killedBy === "SIGXCPU" || /received signal 24\b/.test(stderr);
      resolve({ code, aborted: signal.aborted, timedOut: !signal.aborted && (timedOut || cpuLimit), seconds, stderr });
    });
  });
}
