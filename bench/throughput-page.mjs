// The throughput workload's page as the bench's own servers render it (bench/bare-react.mjs,
// bench/stack-floor.mjs): the rows, the state script, the table and the document around them,
// and how such a server starts and stops.
import { createElement as h } from "react";

/** The same generator as client/features/fixture/Throughput.page.tsx (xorshift32, fixed seed). */
export function throughputRows(count = 1000) {
  let state = 0x9e3779b9;
  const word = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state.toString(16).padStart(8, "0");
  };
  const uuid = () => {
    const a = word();
    const b = word();
    const c = word();
    const d = word();
    return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${((parseInt(c[0] ?? "0", 16) & 3) | 8).toString(16)}${c.slice(1, 4)}-${c.slice(4)}${d}`;
  };
  const rows = [];
  for (let i = 0; i < count; i++) rows.push({ id: uuid(), name: uuid() });
  return rows;
}

const UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES = { "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029" };

/** JSON for a script tag, escaped as our pages escape their state. */
export const serializeState = (value) => JSON.stringify(value).replace(UNSAFE, (c) => ESCAPES[c] ?? c);

/** The rows as a table, one row a line of two cells. */
export function RowsTable({ rows }) {
  return h(
    "table",
    null,
    h(
      "tbody",
      null,
      rows.map((row) => h("tr", { key: row.id }, h("td", null, row.id), h("td", null, row.name))),
    ),
  );
}

/** The whole document: the state in a script tag in the head, `children` as the body. */
export function ThroughputDocument({ state, children }) {
  return h(
    "html",
    { lang: "zh-CN" },
    h(
      "head",
      null,
      h("meta", { charSet: "utf-8" }),
      h("title", null, "吞吐页"),
      h("script", { id: "__boot", type: "application/json", dangerouslySetInnerHTML: { __html: state } }),
    ),
    h("body", null, children),
  );
}

/** Exits unless React's production build is the one loaded. */
export function requireProduction(script) {
  if (process.env.NODE_ENV === "production") return;
  console.error(`${script}: run with NODE_ENV=production (React's production build)`);
  process.exit(2);
}

/** Listens on a free loopback port, prints `LISTENING <port>`, and closes on SIGTERM or SIGINT. */
export function serveOnLoopback(server) {
  server.keepAliveTimeout = 65_000;
  server.listen(0, "127.0.0.1", () => console.log(`LISTENING ${server.address().port}`));
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
