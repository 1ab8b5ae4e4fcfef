#!/usr/bin/env node
// One side of the throughput bench (bench/throughput.mjs): the parts of our stack that no page can
// do without, and nothing else. Express 5 with one route; react-router's static handler runs the
// page's loader (the same rows as the /__test/throughput fixture) and its static router renders
// the page through React 19's renderToPipeableStream, with the router state dehydrated as JSON in
// a script tag. No security headers, nonce, session, logging, metrics, compression, ETag,
// overload guard, layout or document head: what the stack itself costs on this workload.
// Run with NODE_ENV=production. Prints `LISTENING <port>` once it listens on 127.0.0.1.
import http from "node:http";
import express from "express";
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

requireProduction("bench/stack-floor.mjs");

// react-router's package points Node at its development build; the site's bundles use the
// production one (vite.config.ts), and so does this.
const { createStaticHandler, createStaticRouter, StaticRouterProvider, useLoaderData } = await import(
  new URL("../node_modules/react-router/dist/production/index.mjs", import.meta.url).href
);

const rows = throughputRows();
const handler = createStaticHandler([
  {
    id: "fixture.throughput",
    path: "/__test/throughput",
    loader: () => ({ rows }),
    Component: () => h(RowsTable, useLoaderData()),
  },
]);

const app = express();
app.disable("x-powered-by");
app.get("/__test/throughput", async (req, res, next) => {
  try {
    const context = await handler.query(new Request(new URL(req.originalUrl, "http://localhost")));
    if (context instanceof Response) {
      res.status(context.status).end();
      return;
    }
    const router = createStaticRouter(handler.dataRoutes, context);
    const state = serializeState({
      loaderData: context.loaderData,
      actionData: context.actionData,
      errors: context.errors,
    });
    const page = h(ThroughputDocument, { state }, h(StaticRouterProvider, { router, context, hydrate: false }));
    const { pipe } = renderToPipeableStream(page, {
      onShellReady() {
        res.status(context.statusCode);
        res.setHeader("Content-Type", "text/html; charset=utf-8");
        pipe(res);
      },
      onShellError() {
        res.status(500).end("error");
      },
    });
  } catch (err) {
    next(err);
  }
});
serveOnLoopback(http.createServer(app));
