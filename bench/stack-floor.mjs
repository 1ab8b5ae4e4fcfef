#!/usr/bin/env node
// The third side of the throughput bench (bench/throughput.mjs): the parts of our stack that no
// page can do without, and nothing else. Express 5 with one route; react-router's static handler
// runs the page's loader (the same rows as the /__test/throughput fixture) and its static router
// renders the page through React 19's renderToPipeableStream, with the router state dehydrated as
// JSON in a script tag. No security headers, nonce, session, logging, metrics, compression, ETag,
// overload guard, layout or document head: what the stack itself costs on this workload.
// Run with NODE_ENV=production. Prints `LISTENING <port>` once it listens on 127.0.0.1.
import express from "express";
import { createElement as h } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { throughputRows } from "./throughput-rows.mjs";

// react-router's package points Node at its development build; the site's bundles use the
// production one (vite.config.ts), and so does this.
const { createStaticHandler, createStaticRouter, StaticRouterProvider, useLoaderData } = await import(
  new URL("../node_modules/react-router/dist/production/index.mjs", import.meta.url).href
);

if (process.env.NODE_ENV !== "production") {
  console.error("bench/stack-floor.mjs: run with NODE_ENV=production (React's production build)");
  process.exit(2);
}

const UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES = { "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029" };
const serialize = (value) => JSON.stringify(value).replace(UNSAFE, (c) => ESCAPES[c] ?? c);

const rows = throughputRows();

function Table() {
  const { rows } = useLoaderData();
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

const handler = createStaticHandler([
  { id: "fixture.throughput", path: "/__test/throughput", loader: () => ({ rows }), Component: Table },
]);

function Page({ router, context, state }) {
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
    h("body", null, h(StaticRouterProvider, { router, context, hydrate: false })),
  );
}

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
    const state = serialize({ loaderData: context.loaderData, actionData: context.actionData, errors: context.errors });
    const { pipe } = renderToPipeableStream(h(Page, { router, context, state }), {
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

const server = app.listen(0, "127.0.0.1", () => console.log(`LISTENING ${server.address().port}`));
server.keepAliveTimeout = 65_000;
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
