/**
 * A few seconds of memory for public catalogue answers. Anonymous visitors all get the same
 * home page, course list or book, and every server-rendered page asks the API for it again; a
 * short-lived copy per node (and one database round per URL at a time, however many visitors
 * ask at once) keeps page rendering off the database. Only responses the endpoint itself marked
 * `Cache-Control: public` are kept, and signed-in requests always go to the endpoint, since
 * what they see may be personal.
 */
import type { RequestHandler, Response } from "express";
import { handedOverJson, jsonCopy, takesJsonValue } from "./json-hand-over";
import { authOf } from "./request-auth";

/**
 * A kept answer, in the form it was made in: the bytes a network call wrote, or the JSON value
 * an in-process call handed over (api/json-hand-over.ts). The other form is made from it the
 * first time a caller of the other kind asks, and kept beside it.
 */
interface Entry {
  status: number;
  headers: Record<string, string>;
  body?: Buffer;
  json?: { value: unknown };
  expires: number;
}

export interface MicroCacheOptions {
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
  /**
   * Keep any 200 answer, whatever its Cache-Control: for endpoints whose answer is the same for
   * every anonymous visitor but is not for browsers or shared caches to keep (the copy replays the
   * endpoint's own headers, `private, no-store` included). Default: public answers only.
   */
  sameForEveryone?: boolean;
}

const KEPT_HEADERS = ["content-type", "cache-control", "vary"];

/** The middleware, and `clear()` for when the catalogue changed (api/catalogue-changes.ts). */
export type MicroCache = RequestHandler & { clear(): void };

export function microCache({
  ttlMs,
  maxEntries = 500,
  now = Date.now,
  sameForEveryone = false,
}: MicroCacheOptions): MicroCache {
  const entries = new Map<string, Entry>();
  let generation = 0;
  const inFlight = new Map<string, Promise<Entry | null>>();

  function send(res: Response, entry: Entry) {
    for (const [name, value] of Object.entries(entry.headers)) res.setHeader(name, value);
    res.setHeader("X-Micro-Cache", "hit");
    res.status(entry.status);
    if (takesJsonValue(res) && (entry.json || /json/i.test(entry.headers["content-type"] ?? ""))) {
      // The handed-over copy is the caller's own: the kept value stays as it was.
      entry.json ??= { value: entry.body!.length ? JSON.parse(entry.body!.toString("utf8")) : null };
      res.json(entry.json.value);
      return;
    }
    entry.body ??= Buffer.from(JSON.stringify(entry.json!.value), "utf8");
    res.end(entry.body);
  }

  const handler: RequestHandler = (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || authOf(res)) {
      next();
      return;
    }
    const key = req.originalUrl;
    const cached = entries.get(key);
    if (cached && cached.expires > now()) {
      send(res, cached);
      return;
    }
    const pending = inFlight.get(key);
    if (pending) {
      pending.then((entry) => (entry ? send(res, entry) : next())).catch(next);
      return;
    }

    // First asker: let the endpoint answer, and keep a copy of a public 200.
    const startedAt = generation;
    let settle: (entry: Entry | null) => void = () => {};
    inFlight.set(
      key,
      new Promise<Entry | null>((resolve) => {
        settle = resolve;
      }),
    );
    const chunks: Buffer[] = [];
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (chunk) chunks.push(Buffer.from(chunk as Buffer));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as Response["write"];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (chunk && typeof chunk !== "function") chunks.push(Buffer.from(chunk as Buffer));
      const cacheControl = String(res.getHeader("cache-control") ?? "");
      let entry: Entry | null = null;
      if (
        res.statusCode === 200 &&
        (sameForEveryone || /^public\b/.test(cacheControl)) &&
        req.method === "GET" &&
        generation === startedAt
      ) {
        const headers: Record<string, string> = {};
        for (const name of KEPT_HEADERS) {
          const value = res.getHeader(name);
          if (value !== undefined) headers[name] = String(value);
        }
        const handed = handedOverJson(res);
        entry = handed
          ? // A copy of its own: the caller may change the one it was handed.
            { status: 200, headers, json: { value: jsonCopy(handed.value) }, expires: now() + ttlMs }
          : { status: 200, headers, body: Buffer.concat(chunks), expires: now() + ttlMs };
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(key, entry);
      }
      inFlight.delete(key);
      settle(entry);
      return (end as (...args: unknown[]) => Response)(chunk, ...rest);
    }) as Response["end"];
    res.on("close", () => {
      if (inFlight.has(key)) {
        inFlight.delete(key);
        settle(null);
      }
    });
    next();
  };
  // An answer being made while the catalogue changed may hold the old data: it is not kept.
  return Object.assign(handler, {
    clear() {
      generation++;
      entries.clear();
    },
  });
}
