/**
 * Built assets sent as compressed at build time (decision 056): the client build writes a brotli
 * (`.br`) and a zopfli gzip (`.gz`) copy beside each script, style and SVG it shrinks. For
 * such a file this answers with the copy the client prefers, so no request compresses it again;
 * anything else (no copy, a client that takes neither encoding) goes on to the plain file.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import type { RequestHandler } from "express";
import Negotiator from "negotiator";

type Encoding = "br" | "gzip";
const SUFFIX: Record<Encoding, string> = { br: ".br", gzip: ".gz" };
/** On equal quality: brotli, then gzip (smaller first); identity last, as compression ranks them. */
const PREFERRED: readonly string[] = ["br", "gzip", "identity"];

/**
 * The copies in `dir`: file name → the encodings it has. Read once, at start (the build is
 * fixed); no directory, no copies.
 */
export function precompressedCopies(dir: string): Map<string, Encoding[]> {
  const names = new Set(existsSync(dir) ? readdirSync(dir) : []);
  const copies = new Map<string, Encoding[]>();
  for (const name of names) {
    const encodings = (Object.keys(SUFFIX) as Encoding[]).filter((e) => names.has(name + SUFFIX[e]));
    if (encodings.length > 0 && !name.endsWith(".br") && !name.endsWith(".gz")) copies.set(name, encodings);
  }
  return copies;
}

/** The encoding to send for this Accept-Encoding among `available`, or undefined for the plain file. */
export function chooseEncoding(header: string | undefined, available: readonly Encoding[]): Encoding | undefined {
  if (!header) return undefined;
  const choice = new Negotiator({ headers: { "accept-encoding": header } }).encoding(
    [...available, "identity"],
    PREFERRED,
  );
  return choice === "br" || choice === "gzip" ? choice : undefined;
}

/**
 * Mounted at /assets ahead of the static files. Only names found in the directory at start are
 * answered (a lookup, so no request path reaches the file system), with the plain file's type,
 * immutable caching and `Vary: Accept-Encoding`.
 */
export function precompressedAssets(dir: string): RequestHandler {
  const copies = precompressedCopies(dir);
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const name = req.path.slice(1);
    const available = copies.get(name);
    if (!available) return next();
    res.vary("Accept-Encoding");
    const encoding = chooseEncoding(req.headers["accept-encoding"], available);
    if (!encoding) return next();
    // The plain file's type (send would take it from the .br/.gz suffix) and the encoding, which
    // also tells compression the body is encoded already.
    res.type(path.extname(name));
    res.setHeader("Content-Encoding", encoding);
    res.sendFile(name + SUFFIX[encoding], { root: dir, immutable: true, maxAge: "1y", dotfiles: "deny" }, (err) => {
      if (err) next(err);
    });
  };
}
