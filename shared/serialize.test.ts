import { serialize as v8Serialize } from "node:v8";
import { describe, expect, it } from "vitest";
import { serializeBoot, serializeForScript } from "./serialize";

/**
 * V8's own serializer tags a string by how it is stored: `"` one byte a character, `c` two (after
 * the two header bytes and any padding bytes that align the two-byte characters).
 */
function storedOneByte(text: string): boolean {
  const bytes = v8Serialize(text);
  let at = 2;
  while (bytes[at] === 0) at++;
  const tag = bytes[at];
  if (tag !== 0x22 && tag !== 0x63) throw new Error(`unexpected tag ${tag}`);
  return tag === 0x22;
}

const HOSTILE = '</script><!-- x --> & \u2028\u2029 "quoted" back\\slash \n\t\u0000\u001f\u007f';

describe("serializeForScript", () => {
  it("escapes everything that could end a script or a string, and round-trips", () => {
    const value = { a: "</script><!-- x -->", b: "\u2028\u2029", c: "a & b", d: [1, null, "墨"] };
    const out = serializeForScript(value);
    expect(out).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(out)).toEqual(value);
  });
});

describe("serializeBoot", () => {
  const samples: Record<string, unknown> = {
    hostile: { a: HOSTILE, [HOSTILE]: "key too", 墨池: "课堂" },
    chinese: { siteName: "墨池课堂", rows: [{ id: "a-1", title: "楷书入门 · 第一课" }] },
    surrogates: { emoji: "笔😀", lone: "\ud800x\udfff" },
    numbers: { int: 3, neg: -0, float: 1.5e-7, big: 1e21, nan: Number.NaN, inf: -Infinity },
    skipped: { u: undefined, f: () => 1, s: Symbol("x"), kept: true, no: false, nil: null },
    arrays: [undefined, () => 1, Symbol("x"), 1, [[]], {}],
    dates: { at: new Date(Date.UTC(2026, 10, 27, 13, 0)), nested: { toJSON: (key: string) => `key:${key}` } },
    boxed: { n: Object(2), s: Object("墨"), b: Object(false) },
    order: { b: 1, 2: "two", a: 2, 1: "one" },
    top: "just a string",
    empty: { s: "", a: [], o: {} },
  };

  it.each(Object.entries(samples))("writes what JSON.stringify writes: %s", (_name, value) => {
    const out = serializeBoot(value);
    expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(value)));
    // Same members in the same order, not only equal values.
    expect(JSON.stringify(JSON.parse(out))).toBe(JSON.stringify(value));
  });

  it("is ASCII and safe inside a script", () => {
    const out = serializeBoot(samples.hostile);
    expect(out).toMatch(/^[\u0020-\u007e]*$/);
    expect(out).not.toMatch(/[<>&]/);
    expect(out).toContain("\\u58a8\\u6c60");
  });

  it("stores a payload with Chinese in it one byte a character", () => {
    const rows = Array.from({ length: 200 }, (_, i) => ({ id: `row-${i}`, name: `第${i}行` }));
    const value = { root: { siteName: "墨池课堂" }, router: { loaderData: { page: { rows } } } };
    expect(storedOneByte(JSON.stringify(value))).toBe(false);
    expect(storedOneByte(serializeBoot(value))).toBe(true);
    // Long strings go through String.fromCharCode in several calls and stay one byte.
    const long = "书".repeat(20_000);
    const written = serializeBoot({ long });
    expect(storedOneByte(written)).toBe(true);
    expect(JSON.parse(written).long).toBe(long);
  });

  it("refuses what JSON.stringify refuses", () => {
    expect(() => serializeBoot({ n: 1n })).toThrow(TypeError);
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = { back: circular };
    expect(() => serializeBoot(circular)).toThrow(/circular/);
    // The same object twice, not inside itself, is not circular.
    const shared = { x: 1 };
    expect(JSON.parse(serializeBoot({ a: shared, b: [shared] }))).toEqual({ a: { x: 1 }, b: [{ x: 1 }] });
  });

  it("writes null for what has no JSON at the top", () => {
    expect(serializeBoot(undefined)).toBe("null");
    expect(serializeBoot(null)).toBe("null");
  });
});
