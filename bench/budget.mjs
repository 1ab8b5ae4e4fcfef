// The JavaScript budget: the initial JavaScript of each kind of page (its entry <script
// type="module"> plus every <link rel="modulepreload">, in bytes as the server sends them with
// gzip, and with brotli beside) against the budget of decision 028: 100 KB for the home page, 120
// KB for any other (on gzip).
//
//   node bench/budget.mjs     (needs a build: npm run build)
//
// It starts its own production server on a temporary data directory with the demo data (so
// /course/{id} and the others render their pages, not a 404), signs the demo learner in for
// /my pages, prints the table and exits 1 when a page is over budget. `npm run bench` calls
// `checkBudget()` and fails its own run the same way.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { get as httpGet } from "node:http";
import { root, startServer, stopServer, table } from "./server.mjs";
import { initialScripts } from "./initial-js.mjs";

/** Every initial script of a page, entry first, each once. */
const allInitialScripts = (html) => {
  const { entry, preload } = initialScripts(html);
  return [...new Set([...entry, ...preload])];
};

/** Bytes of gzip JavaScript before hydration (1 KB = 1,000 bytes). */
export const BUDGET = { home: 100_000, page: 120_000 };

/**
 * One address per kind of page. Course 1 and its first lesson (a free trial) are the demo
 * catalogue's; `{live}` and `{book}` are the first links of their list pages.
 */
const ROUTES = [
  "/",
  "/about",
  "/product/list",
  "/course/1",
  "/video",
  "/video/1",
  "/video/PublicCourseItem?id=1",
  "/live",
  "/live/{live}",
  "/books",
  "/books/{book}",
  "/stationery",
  "/search?keyword=kaishu",
  "/homework",
  "/experience",
  "/guide",
  "/my",
  "/my/order",
  "/my/homework",
  "/my/security",
];

/** Where the first link of each kind is found. */
const DISCOVER = {
  live: ["/live", /href="\/live\/(\d+)"/],
  book: ["/books", /href="\/books\/(\d+)"/],
};

const DEMO_LEARNER = { email: "learner@mochi.local", password: "Mochi-learner-2026" };

/** The body bytes the server sends for `url` with this Accept-Encoding, undecoded. */
function sentBytes(origin, url, encoding) {
  return new Promise((resolve, reject) => {
    httpGet(new URL(url, origin), { headers: { "accept-encoding": encoding }, agent: false }, (res) => {
      let length = 0;
      res.on("data", (c) => (length += c.length));
      res.on("end", () => (res.statusCode === 200 ? resolve(length) : reject(new Error(`${url}: ${res.statusCode}`))));
    }).on("error", reject);
  });
}

const sentCache = new Map();
/**
 * The initial scripts' weight as the server sends them (decision 056): raw, with gzip, and with
 * brotli. Before precompressed copies this was gzip level 6 of the files, which is what the
 * server's compression sent then.
 */
async function weigh(origin, urls, clientDir) {
  let raw = 0;
  let gzip = 0;
  let br = 0;
  for (const url of urls) {
    const file = path.join(clientDir, decodeURIComponent(new URL(url, "http://x").pathname));
    if (!file.startsWith(clientDir + path.sep) || !existsSync(file)) throw new Error(`${url}: not in dist/client`);
    let sizes = sentCache.get(file);
    if (!sizes) {
      sizes = {
        raw: readFileSync(file).length,
        gzip: await sentBytes(origin, url, "gzip"),
        br: await sentBytes(origin, url, "gzip, deflate, br, zstd"),
      };
      sentCache.set(file, sizes);
    }
    raw += sizes.raw;
    gzip += sizes.gzip;
    br += sizes.br;
  }
  return { scripts: urls.length, raw, gzip, br };
}

async function signIn(origin) {
  const res = await fetch(`${origin}/api/auth/email/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
    body: JSON.stringify(DEMO_LEARNER),
  });
  if (!res.ok) throw new Error(`demo learner sign-in answered ${res.status}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** Measures every route on a running server; returns the rows (over: true when over budget). */
export async function measureBudget(origin, clientDir = path.join(root, "dist/client")) {
  const get = (p, cookie) =>
    fetch(origin + encodeURI(p), { headers: { "user-agent": "mochi-bench", ...(cookie ? { cookie } : {}) } });
  const ids = {};
  for (const [key, [page, pattern]] of Object.entries(DISCOVER)) {
    ids[key] = pattern.exec(await (await get(page)).text())?.[1];
  }
  const cookie = await signIn(origin).catch((err) => {
    console.warn(`warning: ${err.message}; /my pages are measured signed out`);
    return undefined;
  });
  const rows = [];
  for (const route of ROUTES) {
    const missing = [...route.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).find((k) => !ids[k]);
    if (missing) {
      rows.push({ route, path: null, status: null, note: `no ${missing} link found` });
      continue;
    }
    const p = route.replace(/\{(\w+)\}/g, (_, k) => ids[k]);
    const res = await get(p, route.startsWith("/my") ? cookie : undefined);
    const html = await res.text();
    const weight = await weigh(origin, allInitialScripts(html), clientDir);
    const budget = route === "/" ? BUDGET.home : BUDGET.page;
    // A page that did not render (a 503 from a loaded machine, an error page) is not measured:
    // it fails the run rather than passing with the weight of an error page.
    const over = res.status !== 200 || weight.gzip > budget;
    rows.push({ route, path: p, status: res.status, ...weight, budget, over });
  }
  return rows;
}

const kb = (n) => `${(n / 1000).toFixed(1)} KB`;

export function printBudget(rows) {
  console.log(
    "\nJavaScript budget (initial JS per page: entry + modulepreload, bytes as the server sends them with gzip and with brotli; the budget is on gzip; 1 KB = 1,000 bytes):\n",
  );
  const lines = [["page", "address", "status", "scripts", "raw", "gzip", "brotli", "budget", ""]];
  for (const r of rows) {
    if (r.path === null) lines.push([r.route, "-", "-", "-", "-", "-", "-", "-", r.note]);
    else
      lines.push([
        r.route,
        r.path,
        r.status,
        r.scripts,
        kb(r.raw),
        kb(r.gzip),
        kb(r.br),
        kb(r.budget),
        r.status !== 200 ? "NOT MEASURED" : r.over ? "OVER" : "ok",
      ]);
  }
  for (const line of table(lines)) console.log(line);
  const over = rows.filter((r) => r.over);
  if (over.length > 0) console.log(`\n! over budget: ${over.map((r) => r.route).join(", ")}`);
  return over.length === 0;
}

/** Starts a server with the demo data, measures and prints; false when a page is over budget. */
export async function checkBudget() {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "mochi-budget-"));
  let server;
  try {
    // Sizes do not depend on load: no shedding on a busy machine (OVERLOAD_LAG_MS=0).
    server = await startServer({ dataDir: tmp, env: { OVERLOAD_LAG_MS: "0" } });
    const rows = await measureBudget(server.origin);
    return { ok: printBudget(rows), rows };
  } finally {
    await stopServer(server?.child);
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { ok } = await checkBudget();
  process.exit(ok ? 0 : 1);
}
