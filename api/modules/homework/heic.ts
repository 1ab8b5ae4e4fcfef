/**
 * HEIC/HEIF photos (the iPhone's default): recognised by their `ftyp` box and decoded to raw RGBA
 * by libheif compiled to WebAssembly (heic-decode, decision 073), since the prebuilt libvips in
 * sharp reads HEIF headers but decodes only AV1, not the HEVC that phones write. Decoding a
 * 12-megapixel photo takes a second or more of CPU, so it runs in one worker thread, started with
 * the first HEIC photo and shared by every request; the event loop only waits for its answer.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/** The major brands of HEIF still images and sequences (ISO/IEC 23008-12). */
const HEIF_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]);

/** True when the bytes start with an ISO-BMFF `ftyp` box whose major brand is a HEIF one. */
export function isHeif(buf: Buffer): boolean {
  if (buf.length < 12) return false;
  if (buf.toString("latin1", 4, 8) !== "ftyp") return false;
  return HEIF_BRANDS.has(buf.toString("latin1", 8, 12));
}

export interface DecodedHeic {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel. */
  data: Buffer;
}

/** A photo that takes longer than this to decode is given up on and the worker restarted. */
const DECODE_TIMEOUT_MS = 60_000;

// The worker is plain CommonJS run from a string, so it needs no bundling of its own; it loads
// heic-decode from the path the main thread resolved.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
// libheif reports a broken file on the console as well; the caller gets the error and answers it.
console.log = console.error = console.warn = () => {};
const decode = require(workerData.decoder);
parentPort.on("message", async ({ id, bytes }) => {
  try {
    const image = await decode({ buffer: new Uint8Array(bytes) });
    const data = image.data.buffer;
    parentPort.postMessage({ id, width: image.width, height: image.height, data }, [data]);
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
`;

interface Pending {
  resolve: (image: DecodedHeic) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

let worker: Worker | undefined;
const pending = new Map<number, Pending>();
let nextId = 1;

function failAll(err: Error): void {
  for (const [id, job] of pending) {
    clearTimeout(job.timer);
    job.reject(err);
    pending.delete(id);
  }
}

function heicWorker(): Worker {
  if (worker) return worker;
  const decoder = createRequire(import.meta.url).resolve("heic-decode");
  const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { decoder } });
  started.unref();
  started.on("message", (msg: { id: number; width?: number; height?: number; data?: ArrayBuffer; error?: string }) => {
    const job = pending.get(msg.id);
    if (!job) return;
    pending.delete(msg.id);
    clearTimeout(job.timer);
    if (msg.error !== undefined || !msg.data || !msg.width || !msg.height)
      job.reject(new Error(msg.error ?? "HEIC decode failed"));
    else job.resolve({ width: msg.width, height: msg.height, data: Buffer.from(msg.data) });
  });
  const gone = (err: Error) => {
    if (worker === started) worker = undefined;
    failAll(err);
  };
  started.on("error", gone);
  started.on("exit", (code) => gone(new Error(`HEIC worker exited (${code})`)));
  worker = started;
  return started;
}

/** Decodes the first image of a HEIC/HEIF file in the worker thread; rejects on broken input. */
export function decodeHeic(bytes: Buffer): Promise<DecodedHeic> {
  const target = heicWorker();
  const id = nextId++;
  return new Promise<DecodedHeic>((resolve, reject) => {
    const timer = setTimeout(() => {
      // A stuck decode takes the worker with it; the next photo starts a fresh one.
      void target.terminate();
    }, DECODE_TIMEOUT_MS);
    pending.set(id, { resolve, reject, timer });
    // A copy: the request's buffer may be a slice of a pooled one.
    const copy = new Uint8Array(bytes).buffer;
    target.postMessage({ id, bytes: copy }, [copy]);
  });
}

/** Stops the worker (tests; a node shutting down does not wait for it, it is unref'd). */
export async function stopHeicWorker(): Promise<void> {
  const running = worker;
  worker = undefined;
  if (running) await running.terminate();
}
