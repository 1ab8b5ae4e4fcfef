import { describe, expect, it } from "vitest";
import { jsonCopy } from "./json-hand-over";

class Money {
  constructor(readonly cents: number) {}
  toJSON(key: string) {
    return { cents: this.cents, at: key };
  }
}

/** Values JSON writes in ways of its own, each beside what a parse of its text gives. */
const awkward: Array<[string, unknown]> = [
  ["a date", { at: new Date("2026-12-01T08:00:00.000Z") }],
  ["undefined, function and symbol members", { a: undefined, b: () => 1, c: Symbol("s"), d: 1 }],
  ["the same in an array, and a hole", [undefined, () => 1, Symbol("s"), , 2]], // eslint-disable-line no-sparse-arrays
  ["numbers JSON cannot write", { nan: NaN, inf: Infinity, ninf: -Infinity, zero: -0 }],
  ["toJSON, given its key", { price: new Money(1990), list: [new Money(5)] }],
  ["boxed primitives", { n: new Number(3), s: new String("永"), b: new Boolean(false) }],
  ["maps, sets and typed arrays", { m: new Map([[1, 2]]), s: new Set([1]), t: new Uint8Array([7, 8]) }],
  ["a buffer", { data: Buffer.from("墨") }],
  ["the order of members", { z: 1, a: 2, 10: "x", 2: "y" }],
  ["nulls, strings and nesting", { a: null, b: "楷书", c: { d: [{ e: [[]] }] }, f: true }],
  ["a top-level date", new Date(0)],
  ["a top-level string", "永字八法"],
];

describe("a JSON answer copied with JSON's rules", () => {
  it.each(awkward)("gives what parsing the written JSON gives: %s", (_name, value) => {
    const parsed: unknown = JSON.parse(JSON.stringify(value));
    expect(jsonCopy(value)).toStrictEqual(parsed);
  });

  it("keeps a member named __proto__ as a member, as parsing does, not as the prototype", () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const copied = jsonCopy(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(Object.keys(copied)).toEqual(["__proto__", "a"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(copied)).toBe(JSON.stringify(value));
  });

  it("turns what JSON cannot write at the top into null, as the empty body reads", () => {
    expect(jsonCopy(undefined)).toBeNull();
    expect(jsonCopy(() => 1)).toBeNull();
  });

  it("refuses a cycle and a bigint as JSON.stringify does, but not the same object twice", () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => jsonCopy(loop)).toThrow(TypeError);
    expect(() => jsonCopy({ n: 1n })).toThrow(TypeError);
    const shared = { id: 1 };
    expect(jsonCopy({ a: shared, b: [shared] })).toEqual({ a: { id: 1 }, b: [{ id: 1 }] });
  });

  it("shares no object with what it copied", () => {
    const rows = [{ id: 1, tags: ["楷"] }];
    const copied = jsonCopy({ rows }) as { rows: Array<{ id: number; tags: string[] }> };
    copied.rows[0]!.tags.push("行");
    copied.rows.push({ id: 2, tags: [] });
    expect(rows).toEqual([{ id: 1, tags: ["楷"] }]);
  });
});
