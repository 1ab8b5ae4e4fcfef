#!/usr/bin/env node
// `npm start`: the embedded default. Builds once if there is no build, then runs the
// production server (site + API in one process, data under DATA_DIR).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const serverEntry = path.join(root, "dist/server/main.js");

if (!existsSync(serverEntry) || !existsSync(path.join(root, "dist/client/.vite/manifest.json"))) {
  console.log("No build found: building the site (npm run build)…");
  const built = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

// The optimised build, as a local environment: the development outbox (/dev/outbox) shows the
// login codes. A public deployment runs the container (DEPLOY_ENV pro) instead.
process.env.NODE_ENV ??= "production";
process.env.DEPLOY_ENV ??= "local";
await import(serverEntry);
