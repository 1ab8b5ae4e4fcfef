#!/usr/bin/env node
// Runs a built entry (dist/server/<name>.js), building first if there is no build.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const [name, ...args] = process.argv.slice(2);
const entry = path.join(root, "dist/server", `${name}.js`);
if (!existsSync(entry)) {
  console.log("No build found: building the site (npm run build)…");
  const built = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
process.env.NODE_ENV ??= "production";
process.argv = [process.argv[0], entry, ...args];
await import(entry);
