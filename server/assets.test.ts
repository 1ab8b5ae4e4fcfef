import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inlineStyleText, manifestAssets, onlyFontFaces } from "./assets";

describe("stylesheets of a page (decision 049)", () => {
  it("tells a font stylesheet (@font-face rules only) from one that styles the page", () => {
    expect(
      onlyFontFaces(
        '/* brush */@font-face{font-family:Ma Shan Zheng;font-display:swap;src:url(/a.woff2)format("woff2");unicode-range:U+4E00}\n@font-face{font-family:X;src:url(/b.woff2)}',
      ),
    ).toBe(true);
    expect(onlyFontFaces("@font-face{font-family:X;src:url(/b.woff2)}.glyph{font-family:X}")).toBe(false);
    expect(onlyFontFaces(".a{color:red}")).toBe(false);
    expect(onlyFontFaces("")).toBe(false);
  });

  it("a stylesheet cannot end its <style> element early", () => {
    expect(inlineStyleText('a::after{content:"</style><script>"}')).toBe('a::after{content:"<\\/style><script>"}');
    expect(inlineStyleText(".a{color:red}")).toBe(".a{color:red}");
  });

  const dir = mkdtempSync(path.join(os.tmpdir(), "mochi-assets-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("gives a page its own rules to inline and its font stylesheets apart, from the manifest", () => {
    mkdirSync(path.join(dir, ".vite"));
    mkdirSync(path.join(dir, "assets"));
    writeFileSync(path.join(dir, "assets/entry.css"), "body{margin:0}");
    writeFileSync(path.join(dir, "assets/home.css"), ".banner{height:290px}");
    writeFileSync(path.join(dir, "assets/400.css"), "@font-face{font-family:Brush;src:url(/assets/b.woff2)}");
    writeFileSync(
      path.join(dir, ".vite/manifest.json"),
      JSON.stringify({
        "client/entry-client.tsx": { file: "assets/entry.js", isEntry: true, css: ["assets/entry.css"] },
        "client/features/home/Home.page.tsx": {
          file: "assets/home.js",
          css: ["assets/home.css", "assets/400.css"],
          imports: ["client/entry-client.tsx"],
        },
      }),
    );
    const assets = manifestAssets(dir).forModules(["client/features/home/Home.page.tsx"]);
    expect(assets.css).toEqual(["/assets/entry.css", "/assets/home.css"]);
    expect(assets.fonts).toEqual(["/assets/400.css"]);
    expect(assets.styles).toEqual({
      "/assets/entry.css": "body{margin:0}",
      "/assets/home.css": ".banner{height:290px}",
    });
    expect(assets.modulepreload).toEqual(["/assets/home.js"]);
    expect(assets.bootstrap).toEqual(["/assets/entry.js"]);
  });
});
