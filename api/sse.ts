/** Server-Sent Events: how the API opens a stream and pushes each chunk out at once. */
import type { Request, Response } from "express";
import { sseOpenStreams } from "./metrics";

/** Writes a chunk and flushes it, so no buffering layer holds an event back. */
function writeEventChunk(res: Response, chunk: string) {
  res.write(chunk);
  (res as Response & { flush?: () => void }).flush?.();
}

/**
 * Sends the headers of an event stream at once (never cached, never buffered by a proxy) and
 * tells a browser that loses the connection to come back after 3 s.
 */
function openEventStream(req: Request, res: Response) {
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

/**
 * The last event of a stream this node gives up (shutdown): no `id`, so the browser keeps the
 * last id it saw and sends it back as Last-Event-ID; `retry` brings it back within 1–2.5 s,
 * spread out so the viewers of a stopping node do not all land on the others at once (and
 * after the stopping node has closed the stream's socket, 0.5 s after the end).
 */
function reconnectEvent(random: () => number = Math.random): string {
  const retryMs = 1000 + Math.floor(random() * 1500);
  return `event: reconnect\ndata: {}\nretry: ${retryMs}\n\n`;
}

/** An open event stream whose writes stop, and whose clean-ups run once, when it ends. */
export interface GuardedStream {
  /** True once the stream has ended: the browser left, the stream finished, or the node drains. */
  readonly closed: boolean;
  /** Writes a chunk, unless the stream has ended. */
  write(chunk: string): void;
  /** Sends a last chunk (if any), runs the clean-ups and ends the response; once. */
  end(lastChunk?: string): void;
  /** Runs `cleanUp` when the stream ends, however it ends (at once if it has already). */
  onEnd(cleanUp: () => void): void;
}

/**
 * Opens an event stream (`openEventStream`) that keeps itself alive with a comment every
 * `heartbeatMs` and is registered with `streams`, so a draining node ends it with
 * `reconnectEvent()`. Check `closed` after opening and after every await: on a draining node
 * the stream has ended before the caller sends anything.
 */
export function openGuardedStream(
  req: Request,
  res: Response,
  streams: EventStreams,
  heartbeatMs = 15_000,
): GuardedStream {
  let closed = false;
  const cleanUps: Array<() => void> = [];
  const close = () => {
    if (closed) return;
    closed = true;
    for (const cleanUp of cleanUps.splice(0)) cleanUp();
  };
  const stream: GuardedStream = {
    get closed() {
      return closed;
    },
    write: (chunk) => {
      if (!closed) writeEventChunk(res, chunk);
    },
    end: (lastChunk) => {
      if (closed) return;
      if (lastChunk !== undefined) writeEventChunk(res, lastChunk);
      close();
      res.end();
    },
    onEnd: (cleanUp) => {
      if (closed) cleanUp();
      else cleanUps.push(cleanUp);
    },
  };
  res.on("close", close);
  openEventStream(req, res);
  const heartbeat = setInterval(() => stream.write(": ping\n\n"), heartbeatMs);
  stream.onEnd(() => clearInterval(heartbeat));
  // On shutdown the browser reconnects (to another node) and resumes from what it last got.
  stream.onEnd(streams.track(() => stream.end(reconnectEvent())));
  return stream;
}

/**
 * The open event streams of one API. On shutdown `drain()` asks each of them to send
 * `reconnectEvent()` and end, so a draining node holds no connection open and the browsers
 * resume elsewhere; a stream that opens after that is ended the same way at once.
 */
export class EventStreams {
  private readonly open = new Set<() => void>();
  private draining = false;

  /**
   * Registers a stream by the function that ends it for a reconnect (it must stop the stream's
   * timers and end the response). Returns the function to call when the stream ends otherwise.
   */
  track(endForReconnect: () => void): () => void {
    if (this.draining) {
      endForReconnect();
      return () => {};
    }
    this.open.add(endForReconnect);
    return () => this.open.delete(endForReconnect);
  }

  get size(): number {
    return this.open.size;
  }

  /** Ends every open stream with a reconnect event; returns how many there were. */
  drain(): number {
    this.draining = true;
    const ending = [...this.open];
    this.open.clear();
    for (const end of ending) end();
    return ending.length;
  }
}
