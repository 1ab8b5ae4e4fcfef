/**
 * Which files a page needs, from the Vite client manifest: the entry, the matched pages'
 * chunks and everything they import, and their stylesheets. In development Vite serves the
 * sources and injects styles itself.
 *
 * Stylesheets come in two kinds (decision 049): the page's own rules, whose text the document
 * carries inline in its head (no request between the HTML and the first paint), and font
 * stylesheets (nothing but `@font-face` rules, the brush hand's 120 KB of unicode ranges),
 * which are linked but only switched on once the page has loaded.
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
  /** The page's stylesheets, in order; their text is in `styles`. */
  css: string[];
  /** Stylesheets of `@font-face` rules only: not needed for the first paint. */
  fonts: string[];
  modulepreload: string[];
  /** The URL of each module asked for, by manifest key (the browser imports the first page by it). */
  modules: Record<string, string>;
  /** The text of each stylesheet in `css`, to inline in the document's head. */
  styles: Record<string, string>;
}

export interface AssetResolver {
  forModules(moduleKeys: string[]): PageAssets;
}

export function devAssets(): AssetResolver {
  return {
    forModules: (moduleKeys) => ({
      bootstrap: ["/@vite/client", `/${CLIENT_ENTRY}`],
      css: [],
      fonts: [],
      modulepreload: [],
      // Vite serves each source at its path from the project root.
      modules: Object.fromEntries(moduleKeys.map((key) => [key, `/${key}`])),
      styles: {},
    }),
  };
}

/** True for a stylesheet made of `@font-face` rules and nothing else (comments aside). */
export function onlyFontFaces(css: string): boolean {
  const rest = css
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/@font-face\s*\{[^}]*\}/g, "")
    .trim();
  return rest === "" && css.includes("@font-face");
}

/**
 * A stylesheet's text made safe to sit inside <style>…</style>: the only way out of a style
 * element is its end tag, which a stylesheet can hold in a string or a comment. (Vite's own
 * stylesheets never do; a `<` in CSS is only legal in strings and comments.)
 */
export function inlineStyleText(css: string): string {
  return css.replace(/<\/(style)/gi, "<\\/$1");
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

  /** Each stylesheet's text, read once: font stylesheets are marked null. */
  const sheets = new Map<string, string | null>();
  const sheet = (href: string) => {
    let text = sheets.get(href);
    if (text === undefined) {
      const css = readFileSync(path.join(clientDir, href.slice(1)), "utf8");
      text = onlyFontFaces(css) ? null : inlineStyleText(css);
      sheets.set(href, text);
    }
    return text;
  };

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
      const inline: string[] = [];
      const fonts: string[] = [];
      const styles: Record<string, string> = {};
      for (const href of css) {
        const text = sheet(href);
        if (text === null) fonts.push(href);
        else {
          inline.push(href);
          styles[href] = text;
        }
      }
      const modules: Record<string, string> = {};
      for (const key of moduleKeys) {
        const chunk = manifest[key];
        if (chunk) modules[key] = url(chunk.file);
      }
      const assets = { bootstrap: [entryUrl], css: inline, fonts, modulepreload: [...js], modules, styles };
      cache.set(cacheKey, assets);
      return assets;
    },
  };
}
