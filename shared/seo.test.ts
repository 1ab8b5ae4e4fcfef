import { describe, expect, it } from "vitest";
import { DEFAULT_SHARE_IMAGE, DEFAULT_SQUARE_SHARE_IMAGE, shareImageFor, squareShareImageFor } from "./seo";

describe("share pictures", () => {
  it("turns a generated cover into its raster picture and its square form", () => {
    expect(shareImageFor("/media/cover/jade/6c38-portrait.svg")).toBe("/media/share/jade/6c38.jpg");
    expect(squareShareImageFor("/media/cover/jade/6c38-portrait.svg")).toBe("/media/share/jade/6c38-square.jpg");
  });

  it("keeps a page's own JPEG and takes its square picture when it has one", () => {
    const poster = "/api/homework/share/abc/poster.jpg";
    expect(shareImageFor(poster)).toBe(poster);
    expect(squareShareImageFor(poster, "/api/homework/share/abc/square.jpg")).toBe(
      "/api/homework/share/abc/square.jpg",
    );
    expect(squareShareImageFor(poster)).toBe(DEFAULT_SQUARE_SHARE_IMAGE);
  });

  it("gives pages without a raster picture the site's pictures", () => {
    expect(shareImageFor(undefined)).toBe(DEFAULT_SHARE_IMAGE);
    expect(shareImageFor("/logo.svg")).toBe(DEFAULT_SHARE_IMAGE);
    expect(squareShareImageFor(undefined)).toBe(DEFAULT_SQUARE_SHARE_IMAGE);
    expect(squareShareImageFor("/logo.svg")).toBe(DEFAULT_SQUARE_SHARE_IMAGE);
  });
});
