/**
 * A JSON answer handed over as a value instead of written as bytes, for the calls server-side
 * page loaders make to the API in this process (server/in-process-api.ts): `res.json(value)`
 * keeps a copy of `value` made with JSON's rules, and the loader receives that copy, with no
 * `JSON.stringify` in the API and no `JSON.parse` in the loader. What the loader receives is
 * exactly what it would have parsed from the bytes (dates as their ISO strings, `undefined`
 * members left out, `toJSON` applied, non-finite numbers as null, -0 as 0), and it shares nothing with
 * the handler's objects.
 */
import type { Response } from "express";

/** Where one response's `res.json` puts its value: `json` is set once it was called. */
export interface JsonHandOver {
  json?: { value: unknown };
}

const handOvers = new WeakMap<Response, JsonHandOver>();

/**
 * Makes this response's `res.json` hand its value over and end. The value is put in the
 * returned hand-over, which `handedOverJson(res)` also reads.
 */
export function handOverJson(res: Response): JsonHandOver {
  const handOver: JsonHandOver = {};
  handOvers.set(res, handOver);
  res.json = function json(this: Response, value: unknown) {
    if (!this.get("Content-Type")) this.type("json");
    handOver.json = { value: jsonCopy(value) };
    this.end();
    return this;
  } as Response["json"];
  return handOver;
}

/** Whether this response hands JSON over as a value (an in-process call). */
export function takesJsonValue(res: Response): boolean {
  return handOvers.has(res);
}

/** The value `res.json` handed over on this response, if it did. */
export function handedOverJson(res: Response): { value: unknown } | undefined {
  return handOvers.get(res)?.json;
}

/**
 * `JSON.parse(JSON.stringify(value))` without the text in between: the same members, the same
 * order, the same TypeError for a cycle or a bigint. A top-level value JSON cannot write
 * (undefined, a function) becomes null, as the empty body Express then sends reads as null.
 */
export function jsonCopy(value: unknown): unknown {
  return copy(value, "", new Set()) ?? null;
}

function copy(input: unknown, key: string, ancestors: Set<object>): unknown {
  let value = input;
  if (typeof value === "object" && value !== null && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    value = (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      // -0 is written as 0.
      return Number.isFinite(value) ? value + 0 : null;
    case "bigint":
      throw new TypeError("Do not know how to serialize a BigInt");
    case "object":
      break;
    default:
      return undefined;
  }
  if (value === null) return null;
  if (value instanceof Number || value instanceof String || value instanceof Boolean) {
    return copy(value.valueOf(), key, ancestors);
  }
  if (ancestors.has(value)) throw new TypeError("Converting circular structure to JSON");
  ancestors.add(value);
  let out: unknown;
  if (Array.isArray(value)) {
    const items = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) items[i] = copy(value[i], String(i), ancestors) ?? null;
    out = items;
  } else {
    const members: Record<string, unknown> = {};
    const source = value as Record<string, unknown>;
    for (const name of Object.keys(source)) {
      const member = copy(source[name], name, ancestors);
      if (member === undefined) continue;
      // A member named __proto__ is an own member in parsed JSON, not the object's prototype.
      if (name === "__proto__") {
        Object.defineProperty(members, name, { value: member, enumerable: true, writable: true, configurable: true });
      } else members[name] = member;
    }
    out = members;
  }
  ancestors.delete(value);
  return out;
}
