import { describe, expect, it } from "vitest";
import { coverSvg } from "./cover";
import { glyphSvg } from "./glyph";

describe("model characters on covers and practice cards", () => {
  it("are drawn as brush outlines (Ma Shan Zheng), never in a Song/serif face", () => {
    for (const svg of [coverSvg("永", "ink", "landscape"), coverSvg("隶", "jade", "portrait"), glyphSvg("永")]) {
      expect(svg).not.toMatch(/Serif|Songti|serif/);
      expect(svg).not.toContain("<text");
      // The character is a filled path of many curve segments, not a letter set in a font.
      const paths = [...svg.matchAll(/<path d="([^"]+)"/g)].map((m) => m[1]!);
      expect(paths.length).toBeGreaterThan(0);
      expect(paths[0]!.match(/[QC]/g)!.length).toBeGreaterThan(10);
    }
  });

  it("fall back to brush-like system faces only for a character the font lacks", () => {
    const svg = glyphSvg("龘");
    expect(svg).toContain("Ma Shan Zheng");
    expect(svg).not.toMatch(/Songti|Noto Serif/);
  });
});
