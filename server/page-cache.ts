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
import { randomUUID } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import { isbot } from "isbot";
import Negotiator from "negotiator";
import type { Logger } from "pino";
import { pageCacheBytes, pageCacheInvalidations, pageCacheRequests } from "../api/index";
import { isUnsupportedBrowser } from "./browser-support";
import { type GzipPieces, gzipPieces, gzipWithNonce, joinWithNonce, splitAtNonce } from "./page-bytes";
import { serializeRequest } from "./logger";
import { countResponse } from "./metrics";
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
  /**
   * The headers every hit sends: the rendered response's own (helmet's among them) as they were,
   * and the cache's (Cache-Control, ETag, Vary, X-Page-Cache).
   */
  headers: OutgoingHttpHeaders;
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

/** A request id from our own proxies is kept when it looks like one (as server/app.ts does). */
export const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

export interface FrontOptions {
  /** While the node drains, every request goes through Express (which says Connection: close). */
  draining: () => boolean;
  /** Keep an incoming X-Request-Id (only behind our own proxies). */
  trustRequestId: boolean;
  logger?: Pick<Logger, "info" | "isLevelEnabled">;
}

/**
 * The encodings a stored page has, in compression's preference order. compression also offers
 * br and deflate, but neither changes how gzip and identity rank against each other.
 */
const STORED_ENCODINGS = ["gzip", "identity"];
const PREFERRED_ENCODINGS = ["gzip"];

const GZIP_CHOICES = new Map<string, boolean>();

/**
 * Whether a response may be gzip rather than identity for this Accept-Encoding: the negotiator
 * call compression makes (same package and version), so gzip when the client ranks it above
 * identity, ties going to gzip. Remembered per header value, for at most 200 of them.
 */
export function wantsGzip(header: string | undefined): boolean {
  // With no header compression sends identity (its `enforceEncoding`).
  if (!header) return false;
  const known = GZIP_CHOICES.get(header);
  if (known !== undefined) return known;
  const negotiator = new Negotiator({ headers: { "accept-encoding": header } });
  const choice = negotiator.encoding(STORED_ENCODINGS, PREFERRED_ENCODINGS) === "gzip";
  if (GZIP_CHOICES.size >= 200) GZIP_CHOICES.clear();
  GZIP_CHOICES.set(header, choice);
  return choice;
}

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
   * The listener's fast path, ahead of Express (decision 026, addendum): a stored page is answered
   * from the raw request with the headers the rendered response had, its own request id, its own
   * nonce in its CSP and in its page, counted in the request metrics and written to the access log
   * as every request is. False when this request is not a hit (Express then takes it).
   */
  front(opts: FrontOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
    const log = opts.logger;
    return (req, res) => {
      if (this.entries.size === 0 || opts.draining() || !this.eligible(req)) return false;
      const entry = this.lookup(this.keyOf(req));
      if (!entry) return false;
      const started = process.hrtime.bigint();
      const incoming = req.headers["x-request-id"];
      const id =
        opts.trustRequestId && typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
      const status = this.serve(req, res, entry, id);
      pageCacheRequests.inc({ outcome: "hit" });
      const seconds = countResponse(req.method ?? "GET", entry.route ?? "unmatched", status, started);
      if (log?.isLevelEnabled("info"))
        log.info(
          {
            req: { ...serializeRequest(req), id },
            res: { statusCode: status },
            responseTime: Math.round(seconds * 1000),
            pageCache: "hit",
          },
          "request completed",
        );
      return true;
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
  private eligible(req: IncomingMessage | Request): boolean {
    return (
      (req.method === "GET" || req.method === "HEAD") && req.headers.cookie === undefined && !req.headers.authorization
    );
  }

  private keyOf(req: IncomingMessage | Request): string {
    return `${this.flavourOf(req.headers["user-agent"] ?? "")} ${"originalUrl" in req ? req.originalUrl : req.url}`;
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

  /** Writes the stored page (or its 304) with one call; returns the status sent. */
  private serve(req: IncomingMessage, res: ServerResponse, entry: Entry, requestId: string): number {
    const headers: OutgoingHttpHeaders = { ...entry.headers, "x-request-id": requestId };
    if (etagMatches(req.headers["if-none-match"], entry.etag)) {
      // As the renderer does: no CSP on a 304 (the browser keeps the one matching its copy's nonces).
      res.writeHead(304, headers);
      res.end();
      return 304;
    }
    const nonce = freshNonce();
    const bytes = Buffer.from(nonce);
    const gzip = wantsGzip(req.headers["accept-encoding"]);
    const parts = gzip ? gzipWithNonce(entry.gzip, bytes) : joinWithNonce(entry.pieces, bytes);
    let length = 0;
    for (const part of parts) length += part.length;
    headers["content-security-policy"] = entry.csp.join(`'nonce-${nonce}'`);
    headers["content-type"] = entry.contentType;
    if (gzip) headers["content-encoding"] = "gzip";
    headers["content-length"] = length;
    res.writeHead(200, headers);
    if (req.method === "HEAD") {
      res.end();
      return 200;
    }
    // The stored pieces go out as they are, in one vectored write (cork, then end): no copy of the
    // page per response, which at thousands of hits a second kept the garbage collector busy.
    res.cork();
    for (const part of parts) if (part.length > 0) res.write(part);
    res.end();
    return 200;
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
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(res.getHeaders())) {
      if (value !== undefined && !PER_RESPONSE_HEADERS.has(name)) headers[name] = value;
    }
    headers["cache-control"] = "no-cache";
    headers.etag = etag;
    headers.vary = "Accept-Encoding";
    headers["x-page-cache"] = "hit";
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
