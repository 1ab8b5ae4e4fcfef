/**
 * Which files a page needs, from the Vite client manifest: the entry, the matched pages'
 * chunks and everything they import, and their stylesheets. In development Vite serves the
 * sources and injects styles itself.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

export const CLIENT_ENTRY = "client/entry-client.tsx";

export interface PageAssets {
  /** Module scripts to run (React adds them as bootstrap modules). */
  bootstrap: string[];
  css: string[];
  modulepreload: string[];
}

export interface AssetResolver {
  forModules(moduleKeys: string[]): PageAssets;
}

export function devAssets(): AssetResolver {
  return {
    forModules: () => ({ bootstrap: ["/@vite/client", `/${CLIENT_ENTRY}`], css: [], modulepreload: [] }),
  };
}

export function manifestAssets(clientDir: string): AssetResolver {
  const manifest = JSON.parse(readFileSync(path.join(clientDir, ".vite", "manifest.json"), "utf8")) as Manifest;
  const entry = manifest[CLIENT_ENTRY];
  if (!entry) throw new Error(`${CLIENT_ENTRY} missing from the client manifest: run npm run build`);
  const url = (file: string) => `/${file}`;

  function collect(key: string, js: Set<string>, css: Set<string>, seen: Set<string>) {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    js.add(url(chunk.file));
    for (const c of chunk.css ?? []) css.add(url(c));
    for (const imp of chunk.imports ?? []) collect(imp, js, css, seen);
  }

  const cache = new Map<string, PageAssets>();
  return {
    forModules(moduleKeys) {
      const cacheKey = moduleKeys.join("|");
      const hit = cache.get(cacheKey);
      if (hit) return hit;
      const js = new Set<string>();
      const css = new Set<string>();
      const seen = new Set<string>();
      collect(CLIENT_ENTRY, js, css, seen);
      for (const key of moduleKeys) collect(key, js, css, seen);
      const entryUrl = url(entry.file);
      js.delete(entryUrl);
      const assets = { bootstrap: [entryUrl], css: [...css], modulepreload: [...js] };
      cache.set(cacheKey, assets);
      return assets;
    },
  };
}
