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
