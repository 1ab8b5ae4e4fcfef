/** Server-Sent Events: how the API opens a stream and pushes each chunk out at once. */
import type { Request, Response } from "express";
import { sseOpenStreams } from "./metrics.server";

/** Writes a chunk and flushes it, so no buffering layer holds an event back. */
export function writeEventChunk(res: Response, chunk: string) {
  res.write(chunk);
  (res as Response & { flush?: () => void }).flush?.();
}

/**
 * Sends the headers of an event stream at once (never cached, never buffered by a proxy) and
 * tells a browser that loses the connection to come back after 3 s.
 */
export function openEventStream(req: Request, res: Response) {
  res.status(200);
  res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("X-Accel-Buffering", "no");
  res.flushHeaders();
  req.socket.setNoDelay(true);
  sseOpenStreams.inc();
  res.once("close", () => sseOpenStreams.dec());
  writeEventChunk(res, "retry: 3000\n\n");
}
