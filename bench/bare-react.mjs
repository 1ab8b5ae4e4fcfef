#!/usr/bin/env node
// The baseline of the throughput bench (bench/throughput.mjs): plain node:http and React 19's
// renderToPipeableStream, nothing else. It renders the rows of the /__test/throughput fixture
// (same generator, same seed) as a table inside a whole document, and dehydrates them as JSON in
// a script tag, escaped as our pages escape their state. Run with NODE_ENV=production so React
// loads its production build. Prints `LISTENING <port>` once it listens on 127.0.0.1.
import http from "node:http";
import { createElement as h } from "react";
import { renderToPipeableStream } from "react-dom/server";
import {
  RowsTable,
  requireProduction,
  serializeState,
  serveOnLoopback,
  ThroughputDocument,
  throughputRows,
} from "./throughput-page.mjs";

requireProduction("bench/bare-react.mjs");

/** Made once per process, as the fixture's loader does. */
const rows = throughputRows();

const server = http.createServer((req, res) => {
  if (req.url !== "/__test/throughput") {
    res.writeHead(404, { "Content-Type": "text/plain" }).end("Not Found");
    return;
  }
  // Per request, as our pipeline does: serialise the state once, render.
  const state = serializeState({ loaderData: { "fixture.throughput": { rows } } });
  const { pipe } = renderToPipeableStream(h(ThroughputDocument, { state }, h(RowsTable, { rows })), {
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
serveOnLoopback(server);
