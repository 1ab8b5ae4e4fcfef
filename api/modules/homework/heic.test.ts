/**
 * HEIC recognised by its ftyp box, decoded in the worker thread while the event loop keeps
 * turning, and a broken file rejected (decision 073).
 */
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { decodeHeic, isHeif, stopHeicWorker } from "./heic";

const SHEET_HEIC = readFileSync(new URL("../../../tests/fixtures/homework/sheet.heic", import.meta.url));
const ftyp = (brand: string) =>
  Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from(`ftyp${brand}`), Buffer.alloc(16)]);

afterAll(() => stopHeicWorker());

describe("HEIC photos", () => {
  it("are recognised by the major brand of their ftyp box", () => {
    expect(isHeif(SHEET_HEIC)).toBe(true);
    for (const brand of ["heic", "heix", "hevc", "heim", "heis", "mif1", "msf1"])
      expect(isHeif(ftyp(brand))).toBe(true);
    for (const brand of ["avif", "isom", "mp42", "qt  "]) expect(isHeif(ftyp(brand))).toBe(false);
    expect(isHeif(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe(false);
    expect(isHeif(Buffer.from("ftypheic"))).toBe(false);
  });

  it("decode in the worker while the event loop keeps turning", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const started = Date.now();
    const image = await decodeHeic(SHEET_HEIC);
    const took = Date.now() - started;
    clearInterval(timer);
    expect([image.width, image.height]).toEqual([480, 640]);
    expect(image.data.length).toBe(480 * 640 * 4);
    // The main thread was free: timers ran through the decode (about one per 5 ms, allowing for a busy machine).
    expect(ticks).toBeGreaterThan(Math.floor(took / 5 / 4));
    // Rice paper at the corner, not black.
    expect(image.data[0]).toBeGreaterThan(180);
  });

  it("reject a broken file, and the worker decodes the next one", async () => {
    await expect(decodeHeic(SHEET_HEIC.subarray(0, 2000))).rejects.toThrow();
    expect((await decodeHeic(SHEET_HEIC)).width).toBe(480);
  });
});
