import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { makeAvatar } from "./avatar";

describe("makeAvatar", () => {
  it("turns a photo upright by its EXIF orientation, then squares it", async () => {
    // Stored 300 × 200, left half red and right half black, with orientation 6 (turn 90° clockwise):
    // it is shown 200 × 300 with red on top.
    const halves = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#000000" } })
      .composite([
        {
          input: { create: { width: 150, height: 200, channels: 3, background: "#ff0000" } },
          left: 0,
          top: 0,
        },
      ])
      .png()
      .toBuffer();
    const photo = await sharp(halves).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const avatar = await makeAvatar(photo);
    const meta = await sharp(avatar).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 256, height: 256 });
    expect(meta.orientation).toBeUndefined();
    const { data, info } = await sharp(avatar).raw().toBuffer({ resolveWithObject: true });
    const red = (x: number, y: number) => data[(y * info.width + x) * info.channels]!;
    expect(red(200, 20)).toBeGreaterThan(200);
    expect(red(50, 236)).toBeLessThan(50);
  });

  it("refuses a PNG that claims another format's body", async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#222" } })
      .jpeg()
      .toBuffer();
    const forged = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), jpeg]);
    await expect(makeAvatar(forged)).rejects.toMatchObject({ status: 400, code: "invalid_image" });
  });
});
