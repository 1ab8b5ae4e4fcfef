// The initial JavaScript of a page: what its HTML names (module scripts and modulepreload links),
// read from the build and weighed raw and gzip-compressed (what the server's compression sends).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/** `<script type="module" src>` and `<link rel="modulepreload" href>` in the page, in order. */
export function initialScripts(html) {
  const entry = [];
  const preload = [];
  for (const m of html.matchAll(/<(script|link)\b([^>]*)>/gi)) {
    const attrs = {};
    for (const a of m[2].matchAll(/([\w:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>/]+)))?/g)) {
      attrs[a[1].toLowerCase()] = a[2] ?? a[3] ?? a[4] ?? "";
    }
    if (m[1].toLowerCase() === "script" && attrs.type === "module" && attrs.src) entry.push(attrs.src);
    if (m[1].toLowerCase() === "link" && attrs.rel === "modulepreload" && attrs.href) preload.push(attrs.href);
  }
  return { entry: [...new Set(entry)], preload: [...new Set(preload)] };
}

export function jsWeight(html, clientDir) {
  const { entry, preload } = initialScripts(html);
  const files = [...new Set([...entry, ...preload])];
  let raw = 0;
  let gzip = 0;
  const scripts = files.map((url) => {
    const file = path.join(clientDir, decodeURIComponent(new URL(url, "http://x").pathname));
    if (!file.startsWith(clientDir + path.sep) || !existsSync(file)) throw new Error(`${url}: not in dist/client`);
    const bytes = readFileSync(file);
    const gz = gzipSync(bytes).length;
    raw += bytes.length;
    gzip += gz;
    return { url, bytes: bytes.length, gzipBytes: gz };
  });
  return { entry, scripts, totalBytes: raw, totalGzipBytes: gzip };
}
