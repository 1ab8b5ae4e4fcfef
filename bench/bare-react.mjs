#!/usr/bin/env node
// The baseline of the throughput bench (bench/throughput.mjs): plain node:http and React 19's
// renderToPipeableStream, nothing else. It renders the rows of the /__test/throughput fixture
// (same generator, same seed) as a table inside a whole document, and dehydrates them as JSON in
// a script tag, escaped as our pages escape their state. Run with NODE_ENV=production so React
// loads its production build. Prints `LISTENING <port>` once it listens on 127.0.0.1.
import http from "node:http";
import { createElement as h } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { throughputRows } from "./throughput-rows.mjs";

if (process.env.NODE_ENV !== "production") {
  console.error("bench/bare-react.mjs: run with NODE_ENV=production (React's production build)");
  process.exit(2);
}

const UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES = { "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029" };
const serialize = (value) => JSON.stringify(value).replace(UNSAFE, (c) => ESCAPES[c] ?? c);

function Page({ rows, state }) {
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
    h(
      "body",
      null,
      h(
        "table",
        null,
        h(
          "tbody",
          null,
          rows.map((row) => h("tr", { key: row.id }, h("td", null, row.id), h("td", null, row.name))),
        ),
      ),
    ),
  );
}

/** Made once per process, as the fixture's loader does. */
const rows = throughputRows();

const server = http.createServer((req, res) => {
  if (req.url !== "/__test/throughput") {
    res.writeHead(404, { "Content-Type": "text/plain" }).end("Not Found");
    return;
  }
  // Per request, as our pipeline does: serialise the state once, render.
  const state = serialize({ loaderData: { "fixture.throughput": { rows } } });
  const { pipe } = renderToPipeableStream(h(Page, { rows, state }), {
    onShellReady() {
      res.statusCode = 200;
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      pipe(res);
    },
    onShellError() {
      res.statusCode = 500;
      res.end("error");
    },
  });
});
server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => console.log(`LISTENING ${server.address().port}`));
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
