/**
 * Dependency gate: floors for packages with known advisories in this stack, and no React
 * Server Components decoder (the React2Shell family) anywhere in the tree.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as {
  packages: Record<string, { version?: string }>;
};
const installed = Object.entries(lock.packages)
  .filter(([path]) => path.includes("node_modules/"))
  .map(([path, meta]) => ({ name: path.split("node_modules/").pop() ?? "", version: meta.version ?? "0.0.0" }));

function atLeast(version: string, floor: string): boolean {
  const a = version.split(/[.-]/).map(Number);
  const b = floor.split(".").map(Number);
  for (let i = 0; i < b.length; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}

const floors: Record<string, string> = {
  express: "5.1.0",
  "path-to-regexp": "8.4.0",
  "body-parser": "2.2.1",
  qs: "6.14.1",
  "http-proxy-middleware": "3.0.7",
  "on-headers": "1.1.0",
  send: "1.2.0",
  "serve-static": "2.2.0",
  react: "19.2.1",
  "react-dom": "19.2.1",
};

describe("dependency gate", () => {
  it("every copy of a package with a known advisory is at or above its floor", () => {
    const low = installed.filter((p) => p.name in floors && !atLeast(p.version, floors[p.name]!));
    expect(low).toEqual([]);
    const cookies = installed.filter((p) => p.name === "cookie");
    for (const c of cookies) expect(atLeast(c.version, "0.7.0"), `cookie ${c.version}`).toBe(true);
  });

  it("has no React Server Components decoder and no http-proxy-middleware 4 (Node 22 only)", () => {
    expect(installed.filter((p) => p.name.startsWith("react-server-dom")).map((p) => p.name)).toEqual([]);
    expect(installed.filter((p) => p.name === "http-proxy-middleware" && !p.version.startsWith("3.0."))).toEqual([]);
  });
});
