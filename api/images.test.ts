import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { sniffImageFormat } from "./images";

describe("sniffImageFormat", () => {
  it("trusts the bytes, not the name or the declared type", async () => {
    const img = sharp({ create: { width: 8, height: 8, channels: 3, background: "#222" } });
    expect(sniffImageFormat(await img.clone().jpeg().toBuffer())).toBe("jpeg");
    expect(sniffImageFormat(await img.clone().png().toBuffer())).toBe("png");
    expect(sniffImageFormat(await img.clone().webp().toBuffer())).toBe("webp");
    for (const text of ["<svg xmlns='http://www.w3.org/2000/svg'/>", "<!doctype html>", "GIF89a", "RIFF0000WAVE", ""]) {
      expect(sniffImageFormat(Buffer.from(text)), text).toBeNull();
    }
  });
});
