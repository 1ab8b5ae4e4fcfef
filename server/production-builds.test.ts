/**
 * The server bundle runs production builds of React, react-dom and react-router under
 * NODE_ENV=production. react-router publishes its development build as the default Node export,
 * so the bundle aliases it to dist/production (vite.config.ts); react and react-dom stay external
 * and pick their build from NODE_ENV at run time. A development build costs throughput on every
 * page (extra checks and warnings in each render), so a build that brings one back fails here.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const dist = path.resolve(root, process.env.DIST_DIR ?? "dist", "server");

function bundleFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return bundleFiles(file);
    return e.name.endsWith(".js") ? [file] : [];
  });
}

function bundle(): Array<{ file: string; text: string }> {
  if (!existsSync(path.join(dist, "main.js"))) throw new Error("No server build: run `npm run build` first.");
  return bundleFiles(dist).map((file) => ({ file, text: readFileSync(file, "utf8") }));
}

/**
 * Messages react-router prints only from its development build: the production build has the
 * same code behind `ENABLE_DEV_WARNINGS = false`, which the bundler drops with its strings.
 */
const ROUTER_DEV_ONLY = [
  "Matched leaf route at location",
  "You rendered descendant <Routes>",
  "You should not include both `Component` and `element` on your route",
];

describe("the server bundle uses production builds", () => {
  it("bundles react-router's production build, not its development one", () => {
    const files = bundle();
    // react-router is bundled (ssr.noExternal), so its code must be in there.
    expect(files.some(({ text }) => text.includes("createStaticHandler"))).toBe(true);
    for (const { file, text } of files) {
      for (const marker of ROUTER_DEV_ONLY) {
        expect(text.includes(marker), `${path.relative(dist, file)} holds react-router's development build`).toBe(
          false,
        );
      }
      expect(text, `${path.relative(dist, file)} names a development build`).not.toMatch(
        /react-router\/dist\/development|\.development\.js/,
      );
    }
  });

  it("resolves every React package the bundle imports to its production build under NODE_ENV=production", () => {
    const specifiers = new Set<string>();
    for (const { text } of bundle()) {
      for (const m of text.matchAll(
        /(?:from|import\()\s*"((?:react|react-dom|react-router|react-router-dom)(?:\/[^"]*)?)"/g,
      ))
        specifiers.add(m[1] as string);
    }
    expect(specifiers.has("react-dom/server")).toBe(true);
    // Load them as the server does (ESM import, resolved from the project) and list the files that ran.
    const script = `
      const { createRequire } = await import("node:module");
      for (const s of ${JSON.stringify([...specifiers])}) await import(s);
      const require = createRequire(${JSON.stringify(path.join(root, "package.json"))});
      // Node also lexes (never runs) the other branch of a package's index for its export names:
      // those entries stay \`loaded: false\`.
      const ran = Object.entries(require.cache).filter(([, m]) => m?.loaded).map(([f]) => f);
      console.log(JSON.stringify(ran));
    `;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", NODE_ENV: "production" },
      encoding: "utf8",
    });
    expect(run.status, run.stderr).toBe(0);
    const loaded = (JSON.parse(run.stdout) as string[]).filter((f) =>
      /node_modules[\\/](react|react-dom|react-router)/.test(f),
    );
    expect(loaded.some((f) => /react-dom-server\.node\.production\.js$/.test(f))).toBe(true);
    expect(loaded.filter((f) => /development/.test(f))).toEqual([]);
  });
});
