/**
 * JSON for embedding inside an HTML <script>: `<`, `>`, `&`, U+2028 and U+2029 are escaped so
 * data can never close the script, open a comment, or break a JavaScript string.
 */
const UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

export function serializeForScript(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, (c) => ESCAPES[c] ?? c);
}

/*
 * The boot payload (decision 052). `JSON.stringify` of data holding one Chinese character returns
 * a string of two bytes per character, and the first thing that reads it (escaping, hashing,
 * encoding for the socket) makes a flat copy of it: for the 1,000-row throughput page 92,000
 * characters, 184 KB, past V8's 128 KB limit for ordinary young objects, so every page allocated
 * a large object and paid about 3 ms of CPU for it (six times the serialisation itself).
 * `serializeBoot` writes the same JSON with every character above U+007E as a `\uXXXX` escape,
 * built from one-byte pieces only, so the payload is stored one byte a character however much
 * Chinese it carries. `JSON.parse` gives back exactly the same value. Pages' payloads are mostly
 * ASCII (keys, ids, addresses); the escapes add about 1 % to a gzipped page.
 */

/** Strings that can be written between quotes as they are: printable ASCII but `"`, `\`, `<`, `>`, `&`. */
const PLAIN = /^[\u0020\u0021\u0023-\u0025\u0027-\u003b\u003d\u003f-\u005b\u005d-\u007e]*$/;
const HEX_DIGITS = "0123456789abcdef";
/** Char codes per `String.fromCharCode` call (far below any engine's argument limit). */
const CODES_PER_CALL = 4096;

/**
 * `JSON.stringify(text)` with everything but printable ASCII (and `<`, `>`, `&`) as `\uXXXX`,
 * made by `String.fromCharCode`, which returns a one-byte string when every code fits.
 */
function quoteAscii(text: string): string {
  const json = JSON.stringify(text);
  const codes: number[] = [];
  let out = "";
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (c < 0x7f && c !== 0x3c && c !== 0x3e && c !== 0x26) codes.push(c);
    else
      codes.push(
        0x5c,
        0x75,
        HEX_DIGITS.charCodeAt(c >> 12),
        HEX_DIGITS.charCodeAt((c >> 8) & 15),
        HEX_DIGITS.charCodeAt((c >> 4) & 15),
        HEX_DIGITS.charCodeAt(c & 15),
      );
    if (codes.length >= CODES_PER_CALL) {
      out += String.fromCharCode(...codes);
      codes.length = 0;
    }
  }
  return out + String.fromCharCode(...codes);
}

function quote(text: string): string {
  return PLAIN.test(text) ? `"${text}"` : quoteAscii(text);
}

/** One value as `JSON.stringify` writes it (toJSON, skipped members, null for what has no JSON). */
function write(value: unknown, key: string, path: unknown[]): string | undefined {
  let v = value;
  if (v !== null && typeof v === "object" && typeof (v as { toJSON?: unknown }).toJSON === "function")
    v = (v as { toJSON(key: string): unknown }).toJSON(key);
  if (v instanceof Number || v instanceof String || v instanceof Boolean) v = v.valueOf();
  switch (typeof v) {
    case "string":
      return quote(v);
    case "number":
      return Number.isFinite(v) ? String(v) : "null";
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      throw new TypeError("Do not know how to serialize a BigInt");
    case "object": {
      if (v === null) return "null";
      if (path.includes(v)) throw new TypeError("Converting circular structure to JSON");
      path.push(v);
      let out: string;
      if (Array.isArray(v)) {
        out = "[";
        for (let i = 0; i < v.length; i++) out += `${i === 0 ? "" : ","}${write(v[i], String(i), path) ?? "null"}`;
        out += "]";
      } else {
        out = "{";
        let first = true;
        const record = v as Record<string, unknown>;
        for (const k of Object.keys(record)) {
          const member = write(record[k], k, path);
          if (member === undefined) continue;
          out += `${first ? "" : ","}${quote(k)}:${member}`;
          first = false;
        }
        out += "}";
      }
      path.pop();
      return out;
    }
    default:
      // undefined, functions and symbols: left out of objects, null in arrays.
      return undefined;
  }
}

/**
 * The page's boot payload as JSON safe inside a <script> (as `serializeForScript`), in ASCII only.
 * Throws as `JSON.stringify` does on BigInt and circular data.
 */
export function serializeBoot(value: unknown): string {
  return write(value, "", []) ?? "null";
}
