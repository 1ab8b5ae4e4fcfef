import { readdirSync, readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants as zlibConstants } from "node:zlib";
import { gzipAsync as zopfliGzip } from "@gfx/zopfli";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/** react-router exports only its development build; bundles use its production build. */
const routerBuild = (file: string) =>
  fileURLToPath(new URL(`./node_modules/react-router/dist/production/${file}`, import.meta.url));

const CONTRACTS_DIR = fileURLToPath(new URL("./shared/contracts/", import.meta.url));
/** Marks the copy of a contract module that keeps its schemas, in the browser bundle (decision 030). */
const WITH_SCHEMAS = "?schemas&lang.ts";

const contractFiles = () =>
  readdirSync(CONTRACTS_DIR).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith(".d.ts"));

/**
 * The names whose calls only build zod schemas or compute values: `z`, and every top-level
 * function and schema of a contract module (`fooSchema.extend(…)`, `outlineChapterOf(…)`).
 * Contract modules hold schemas, constants and pure functions only; marking these calls pure in
 * the browser bundle lets a page import a constant from a contract module without that module's
 * schemas, and without zod (decision 030).
 */
function contractNames(): { pure: string[]; schemas: Set<string> } {
  const pure = new Set(["z"]);
  const schemas = new Set<string>();
  const functions = new Set<string>();
  const decls: [string, string][] = [];
  let topLevel = "";
  for (const file of contractFiles()) {
    const text = readFileSync(CONTRACTS_DIR + file, "utf8");
    for (const m of text.matchAll(/^(?:export )?function (\w+)/gm)) functions.add(m[1]!);
    for (const m of text.matchAll(/^(?:export )?const (\w+)(?:: [^=]+)? =\s*(\S+)/gm)) {
      const init = m[2]!;
      const statement = text.slice(m.index, text.indexOf(";\n", m.index));
      // Arrow functions (`(x) =>`, `<T>(x) =>`, `async (x) =>`): calling them builds a value.
      if (/^(\(|<|async\b)/.test(init)) functions.add(m[1]!);
      else {
        topLevel += statement;
        // Arrays of schemas or constants (`[z.object(…), …]`; `list.map(…)` only computes).
        if (init.startsWith("[")) {
          pure.add(m[1]!);
          if (statement.includes("z.")) schemas.add(m[1]!);
        } else decls.push([m[1]!, init]);
      }
    }
  }
  // The names are matched wherever they are called in the browser bundle, so only functions
  // that contract modules call while building their values are listed, not every helper.
  for (const name of functions) if (new RegExp(`\\b${name}\\(`).test(topLevel)) pure.add(name);
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, init] of decls) {
      const root = /^(\w+)/.exec(init)?.[1];
      if (!pure.has(name) && root !== undefined && pure.has(root)) {
        pure.add(name);
        schemas.add(name);
        grew = true;
      }
    }
  }
  return { pure: [...pure], schemas };
}

/**
 * Contracts in the browser load with the first request that needs them. A loader passes
 * `schema: import("…/contracts/x").then((m) => m.xSchema)`. In the browser bundle each contract
 * module exists twice: the module itself, imported for its constants and functions (its schemas
 * unused, so dropped with zod), and a copy with its schemas (`…/x.ts?schemas`), which dynamic
 * imports and static imports of a schema resolve to, and whose own contract imports are copies
 * too. A page thus carries zod only when it uses a schema itself. The server bundle is unchanged.
 */
function contractsOnDemand(schemas: Set<string>): Plugin {
  const isContract = (id: string) => id.startsWith(CONTRACTS_DIR) && !id.includes("?");
  const importsSchema = (specifiers: string) =>
    specifiers
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s && !s.startsWith("type "))
      .some((s) => schemas.has(s.split(/\s+as\s+/)[0]!));
  return {
    name: "mochi:contracts-on-demand",
    enforce: "pre",
    applyToEnvironment: (env) => env.name === "client",
    async resolveId(source, importer) {
      if (!importer) return null;
      const fromCopy = importer.endsWith(WITH_SCHEMAS);
      const wantsCopy = source.endsWith(WITH_SCHEMAS);
      if (!fromCopy && !wantsCopy) return null;
      const bare = wantsCopy ? source.slice(0, -WITH_SCHEMAS.length) : source;
      const base = fromCopy ? importer.slice(0, -WITH_SCHEMAS.length) : importer;
      const resolved = await this.resolve(bare, base, { skipSelf: true });
      if (resolved && isContract(resolved.id)) return resolved.id + WITH_SCHEMAS;
      return resolved;
    },
    load(id) {
      if (id.endsWith(WITH_SCHEMAS)) return readFileSync(id.slice(0, -WITH_SCHEMAS.length), "utf8");
      return null;
    },
    transform(code, id) {
      if (id.includes("/node_modules/") || id.endsWith(WITH_SCHEMAS) || !code.includes("contracts/")) return null;
      const next = code
        .replace(
          /import\((["'])([^"']*\/contracts\/[\w-]+)\1\)/g,
          (_m, quote: string, spec: string) => `import(${quote}${spec}${WITH_SCHEMAS}${quote})`,
        )
        .replace(
          /(import\s*\{)([^}]*)(\}\s*from\s*)(["'])([^"']*\/contracts\/[\w-]+)\4/g,
          (m, open: string, names: string, from: string, quote: string, spec: string) =>
            importsSchema(names) ? `${open}${names}${from}${quote}${spec}${WITH_SCHEMAS}${quote}` : m,
        );
      return next === code ? null : { code: next, map: null };
    },
  };
}

const contracts = contractNames();

/**
 * Next to the server bundle, a migrated PGlite cluster (dist/pglite-cluster.tar.gz): a first start
 * on an empty data folder unpacks it instead of running initdb and the migrations (decision 053).
 * Made by the bundle's own `make-cluster` entry, and again only when the installed PGlite, its
 * start parameters or the migrations changed.
 */
function pgliteCluster(outRoot: string): Plugin {
  return {
    name: "mochi:pglite-cluster",
    apply: "build",
    applyToEnvironment: (env) => env.name === "ssr",
    async writeBundle(options) {
      const entry = pathToFileURL(path.resolve(options.dir ?? `${outRoot}/server`, "make-cluster.js")).href;
      const { writeBuildCluster } = (await import(entry)) as typeof import("./server/make-cluster");
      const written = await writeBuildCluster(outRoot);
      if (written) this.info(`${written}: a new migrated PGlite cluster, unpacked by first starts`);
    },
  };
}

/**
 * react-router's production build makes its components with `React.forwardRef(…)` and names them
 * after (`Link.displayName = "Link"`): to the bundler both are side effects, so every component
 * stays in the browser bundle, used or not, with what it brings (prefetch links, RSC handlers).
 * The calls are marked pure and the names (for developer tools only) dropped, so an unused
 * component goes (decision 055). Only top-level assignments are touched.
 */
function routerComponentsShakeable(): Plugin {
  return {
    name: "router-components-shakeable",
    applyToEnvironment: (environment) => environment.name === "client",
    transform: {
      filter: { id: /\/node_modules\/react-router\/dist\/production\/chunk-\w+\.mjs$/ },
      handler(code) {
        const marked = code
          .replace(/(?<![\w$.])(React\d*\.forwardRef\()/g, "/* @__PURE__ */ $1")
          .replace(/^\w+\.displayName = "[^"\n]*";$/gm, "");
        return marked === code ? null : { code: marked, map: null };
      },
    },
  };
}

/** What the client build compresses ahead of time: scripts, styles and SVG. */
const PRECOMPRESSED = /\.(js|css|svg)$/;
const brotli = promisify(brotliCompress);

/**
 * Every built script, style and SVG under assets/ gets a brotli copy (quality 11) and a gzip copy
 * made with zopfli (the deflate format, about 4 % smaller than zlib's best), written beside it as
 * `.br` and `.gz` (decision 056). The server sends these instead of compressing each request.
 * Small files too: compression leaves bodies under 1 KiB alone, and a page loads a dozen such
 * chunks. A copy no smaller than its file is not written.
 */
function precompressAssets(): Plugin {
  return {
    name: "mochi:precompress-assets",
    apply: "build",
    applyToEnvironment: (env) => env.name === "client",
    async writeBundle(options, bundle) {
      const dir = options.dir ?? `${outRoot}/client`;
      const names = Object.keys(bundle).filter((name) => name.startsWith("assets/") && PRECOMPRESSED.test(name));
      let written = 0;
      // A few at a time: zopfli is CPU-bound, brotli runs on libuv's pool beside it.
      const queue = [...names];
      const work = async () => {
        for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
          const file = path.join(dir, name);
          const bytes = await readFile(file);
          const [br, gz] = await Promise.all([
            brotli(bytes, {
              params: {
                [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
                [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            }),
            zopfliGzip(bytes, { numiterations: 5 }),
          ]);
          if (br.length < bytes.length) await writeFile(`${file}.br`, br);
          if (gz.length < bytes.length) await writeFile(`${file}.gz`, gz);
          if (br.length < bytes.length || gz.length < bytes.length) written += 1;
        }
      };
      await Promise.all([work(), work(), work(), work()]);
      this.info(`${written} assets precompressed (.br, .gz)`);
    },
  };
}

/** The entry's chunk and its static imports (the groups "react" and "shell" below, the bundler's runtime). */
const ALWAYS_LOADED = /^assets\/(entry-client|react|shell|rolldown-runtime)-[\w-]+\.js$/;

/**
 * One `vite build --app` makes both halves: the browser bundle (with manifest.json, served
 * from /assets/) and the server bundle (dist/server/main.js, dependencies left external).
 */
/** DIST_DIR lets several builds live side by side (parallel test runs); default dist/. */
const outRoot = process.env.DIST_DIR ?? "dist";

export default defineConfig({
  plugins: [
    react(),
    contractsOnDemand(contracts.schemas),
    routerComponentsShakeable(),
    precompressAssets(),
    pgliteCluster(outRoot),
  ],
  base: "/",
  resolve: {
    alias: [
      { find: /^react-router$/, replacement: routerBuild("index.mjs") },
      { find: /^react-router\/dom$/, replacement: routerBuild("dom-export.mjs") },
    ],
  },
  // Bundled into the server build so the alias above applies there too.
  ssr: { noExternal: ["react-router", "react-router-dom"] },
  define: {
    __BUILD_DATE__: JSON.stringify(new Date().toISOString().slice(0, 10)),
  },
  builder: {},
  environments: {
    client: {
      build: {
        outDir: `${outRoot}/client`,
        manifest: true,
        emptyOutDir: true,
        // A lazy chunk's preload list leaves out the entry and the chunks it imports: every import()
        // runs from code they loaded, so naming them in each list is bytes for nothing (decision 054).
        modulePreload: { resolveDependencies: (_file, deps) => deps.filter((dep) => !ALWAYS_LOADED.test(dep)) },
        rolldownOptions: {
          input: "client/entry-client.tsx",
          treeshake: { manualPureFunctions: contracts.pure, propertyReadSideEffects: false },
          // React, its JSX runtime and the router in one chunk: every page needs them, and the
          // runtime alone (a few hundred bytes) is not worth a request of its own; without this the
          // router may land in a chunk of its own, a fourth request on every page. The same for the small
          // modules every page loads beside the entry (the bundler's runtime and preload helper,
          // the HTTP client, errors, constants): one file gzips smaller than five (decision 050).
          output: {
            codeSplitting: {
              groups: [
                { name: "react", test: /\/node_modules\/react(-router|-router-dom)?\// },
                {
                  name: "shell",
                  test: /^\0(vite\/preload-helper|rolldown\/runtime)|\/shared\/(ajax|errors|constants)\.ts$/,
                },
              ],
            },
          },
        },
      },
    },
    ssr: {
      build: {
        outDir: `${outRoot}/server`,
        ssr: true,
        emptyOutDir: true,
        rolldownOptions: {
          input: {
            main: "server/main.ts",
            api: "server/api-main.ts",
            cli: "server/cli.ts",
            // A build step: the migrated PGlite cluster (pgliteCluster above).
            "make-cluster": "server/make-cluster.ts",
          },
        },
      },
    },
  },
});
