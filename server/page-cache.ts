/**
 * Anonymous pages from memory (docs/decisions/026-page-cache.md).
 *
 * A page rendered for a request without any cookie, which the renderer marked as anonymous and
 * public (`Cache-Control: no-cache` with an ETag, status 200, no Set-Cookie), is kept per node,
 * keyed by its URL and the visitor's page flavour (crawler, unsupported browser). Entries are
 * dropped whenever the catalogue changes on any node (NOTIFY `catalogue_changed`, and every
 * LISTEN reconnection), after a TTL, and least recently used first beyond the entry and byte
 * limits. Every response still gets its own CSP nonce, put in the places the rendered nonce had
 * (server/page-bytes.ts), and the weak ETag the renderer gave the page; `If-None-Match` gets 304.
 *
 * Two middlewares: `capture()` right before the renderer (helmet, with the response's nonce, and
 * compression have run) keeps what it writes; `hits()` early in the chain (after the request id,
 * metrics and access log) answers from memory with the headers the rendered response had.
 */
import type { Request, RequestHandler, Response } from "express";
import { isbot } from "isbot";
import type { Logger } from "pino";
import { pageCacheBytes, pageCacheInvalidations, pageCacheRequests } from "../api/metrics";
import { isUnsupportedBrowser } from "./browser-support";
import { type GzipPieces, gzipPieces, gzipWithNonce, joinWithNonce, splitAtNonce } from "./page-bytes";
import { etagMatches } from "./render";
import { cspNonce, freshNonce } from "./security";

export interface PageCacheOptions {
  maxEntries: number;
  /** Identity and gzip bytes of all entries together. */
  maxBytes: number;
  ttlMs: number;
  logger?: Pick<Logger, "info" | "debug">;
  now?: () => number;
}

interface Entry {
  etag: string;
  contentType: string;
  /** The rendered response's other headers (helmet's among them), as they were. */
  headers: [string, string | number | string[]][];
  /** The CSP header cut where its nonce source went. */
  csp: string[];
  route: string | undefined;
  /** The page cut at its nonce places. */
  pieces: Buffer[];
  nonceLength: number;
  gzip: GzipPieces;
  bytes: number;
  expires: number;
}

/** Headers each response makes for itself, or that a hit sets from the entry. */
const PER_RESPONSE_HEADERS = new Set([
  "x-request-id",
  "date",
  "connection",
  "keep-alive",
  "content-length",
  "transfer-encoding",
  "content-encoding",
  "content-type",
  "content-security-policy",
  "cache-control",
  "etag",
  "vary",
  "set-cookie",
]);

/** The length of the nonces server/security.ts makes (16 random bytes, base64). */
const NONCE_LENGTH = 24;

/** Pages that carry the server's clock (countdowns) go stale by the second: never kept. */
const PER_REQUEST_MARKERS = [Buffer.from('"serverNow"')];

/** A page bigger than this is not kept (a quarter of the budget, at most 2 MiB). */
const entryLimit = (maxBytes: number) => Math.min(2 * 2 ** 20, Math.floor(maxBytes / 4));

const FLAVOURS_KEPT = 1000;

export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  /** Bumped by every invalidation: a render that began before it is not kept. */
  private generation = 0;
  private readonly flavours = new Map<string, string>();
  private readonly now: () => number;

  constructor(private readonly opts: PageCacheOptions) {
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  get byteSize(): number {
    return this.bytes;
  }

  /** Empties the cache: the catalogue changed somewhere, or changes may have been missed. */
  invalidate(reason: string): void {
    this.generation++;
    const dropped = this.entries.size;
    this.entries.clear();
    this.bytes = 0;
    pageCacheInvalidations.inc();
    pageCacheBytes.set(0);
    if (dropped > 0) this.opts.logger?.debug({ reason, dropped }, "page cache emptied");
  }

  /**
   * Answers stored pages; mounted early (after the request id, metrics and access log), so a hit
   * skips the rest of the chain and sets the headers the rendered response had, with its own
   * nonce in its CSP and in its page.
   */
  hits(): RequestHandler {
    return (req, res, next) => {
      if (this.entries.size === 0 || !this.eligible(req)) {
        next();
        return;
      }
      const entry = this.lookup(this.keyOf(req));
      if (!entry) {
        next();
        return;
      }
      this.serve(req, res, entry);
      pageCacheRequests.inc({ outcome: "hit" });
    };
  }

  /** Mounted right before the renderer: keeps what it writes for an eligible GET. */
  capture(): RequestHandler {
    return (req, _res, next) => {
      if (req.method === "GET" && this.eligible(req)) {
        pageCacheRequests.inc({ outcome: "miss" });
        this.record(this.keyOf(req), _res);
      }
      next();
    };
  }

  /** Any cookie may mean a session (even one that no longer reads as valid): rendered as usual. */
  private eligible(req: Request): boolean {
    return (
      (req.method === "GET" || req.method === "HEAD") && req.headers.cookie === undefined && !req.headers.authorization
    );
  }

  private keyOf(req: Request): string {
    return `${this.flavourOf(req.headers["user-agent"] ?? "")} ${req.originalUrl}`;
  }

  /** Crawlers get whole documents and old browsers a notice: each their own entry. */
  private flavourOf(userAgent: string): string {
    let flavour = this.flavours.get(userAgent);
    if (flavour === undefined) {
      flavour = isbot(userAgent) ? "crawler" : isUnsupportedBrowser(userAgent) ? "old" : "browser";
      if (this.flavours.size >= FLAVOURS_KEPT) this.flavours.clear();
      this.flavours.set(userAgent, flavour);
    }
    return flavour;
  }

  private lookup(key: string): Entry | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expires <= this.now()) {
      this.remove(key, entry);
      return null;
    }
    // Most recently used last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  private serve(req: Request, res: Response, entry: Entry): void {
    const nonce = freshNonce();
    res.locals.cspNonce = nonce;
    if (entry.route) res.locals.routePattern = entry.route;
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    res.setHeader("Cache-Control", "no-cache");
    res.setHeader("ETag", entry.etag);
    res.setHeader("Vary", "Accept-Encoding");
    res.setHeader("X-Page-Cache", "hit");
    if (etagMatches(req.headers["if-none-match"], entry.etag)) {
      // As the renderer does: the stored copy keeps the CSP that matches its nonces.
      res.removeHeader("Content-Security-Policy");
      res.statusCode = 304;
      res.end();
      return;
    }
    res.setHeader("Content-Security-Policy", entry.csp.join(`'nonce-${nonce}'`));
    const bytes = Buffer.from(nonce);
    const gzip = req.acceptsEncodings("gzip", "identity") === "gzip";
    const body = gzip ? gzipWithNonce(entry.gzip, bytes) : joinWithNonce(entry.pieces, bytes);
    res.setHeader("Content-Type", entry.contentType);
    if (gzip) res.setHeader("Content-Encoding", "gzip");
    res.setHeader("Content-Length", body.length);
    res.statusCode = 200;
    if (req.method === "HEAD") res.end();
    else res.end(body);
  }

  /** Keeps a copy of what the renderer writes, and stores it at the end if it may be shared. */
  private record(key: string, res: Response): void {
    const startedAt = this.generation;
    const limit = entryLimit(this.opts.maxBytes);
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    const keep = (chunk: unknown, encoding: unknown) => {
      if (tooBig || chunk === undefined || chunk === null || typeof chunk === "function") return;
      const buf =
        typeof chunk === "string"
          ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
          : Buffer.from(chunk as Uint8Array);
      size += buf.length;
      if (size > limit) {
        tooBig = true;
        chunks.length = 0;
      } else chunks.push(buf);
    };
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as Response["write"];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      const result = end(chunk, ...rest);
      if (!tooBig && startedAt === this.generation) this.store(key, res, Buffer.concat(chunks));
      return result;
    }) as Response["end"];
  }

  private store(key: string, res: Response, body: Buffer): void {
    const etag = res.getHeader("ETag");
    const contentType = String(res.getHeader("Content-Type") ?? "");
    const shareable =
      res.statusCode === 200 &&
      res.getHeader("Cache-Control") === "no-cache" &&
      typeof etag === "string" &&
      contentType.startsWith("text/html") &&
      res.getHeader("Set-Cookie") === undefined &&
      !res.locals.viewer &&
      res.locals.viewerUnavailable !== true &&
      res.locals.renderFailed !== true &&
      !res.destroyed &&
      body.length > 0 &&
      !PER_REQUEST_MARKERS.some((marker) => body.includes(marker));
    if (!shareable) return;
    const nonce = cspNonce(res);
    const pieces = splitAtNonce(body, nonce);
    const csp = String(res.getHeader("Content-Security-Policy") ?? "").split(`'nonce-${nonce}'`);
    if (!pieces || csp.length !== 2 || nonce.length !== NONCE_LENGTH) return;
    const headers: [string, string | number | string[]][] = [];
    for (const [name, value] of Object.entries(res.getHeaders())) {
      if (value !== undefined && !PER_RESPONSE_HEADERS.has(name)) headers.push([name, value]);
    }
    const nonceLength = Buffer.byteLength(nonce);
    const gzip = gzipPieces(pieces, nonceLength);
    const bytes = body.length + gzip.deflated.reduce((n, b) => n + b.length, 0);
    if (bytes > this.opts.maxBytes) return;
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    while (
      this.entries.size > 0 &&
      (this.entries.size >= this.opts.maxEntries || this.bytes + bytes > this.opts.maxBytes)
    ) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, Entry];
      this.remove(oldestKey, oldest);
    }
    this.entries.set(key, {
      etag,
      contentType,
      headers,
      csp,
      route: typeof res.locals.routePattern === "string" ? res.locals.routePattern : undefined,
      pieces,
      nonceLength,
      gzip,
      bytes,
      expires: this.now() + this.opts.ttlMs,
    });
    this.bytes += bytes;
    pageCacheBytes.set(this.bytes);
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    pageCacheBytes.set(this.bytes);
  }
}
