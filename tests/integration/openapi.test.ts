/**
 * The OpenAPI document against the routes really mounted: every route the API serves comes from
 * a `defineEndpoint` list, every listed endpoint is in the document, and every documented
 * operation reaches a handler (never the API's own 404).
 */
import type { Router } from "express";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS, expressPath, type EndpointRouter } from "../../api/endpoint";
import { createApiRouter } from "../../api/compose/router";
import { testApp } from "./helpers";

type App = Awaited<ReturnType<typeof testApp>>;
let t: App;

beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t.dispose();
});

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle: unknown;
  name?: string;
}

const stackOf = (router: unknown): Layer[] => (router as { stack: Layer[] }).stack;
const isRouter = (handle: unknown): handle is Router =>
  typeof handle === "function" && Array.isArray((handle as { stack?: unknown }).stack);

/** `METHOD /path` of every endpoint router mounted on the API, and any route mounted outside one. */
function mountedRoutes(api: Router) {
  const described: string[] = [];
  const undescribed: string[] = [];
  for (const layer of stackOf(api)) {
    if (layer.route) {
      undescribed.push(`${Object.keys(layer.route.methods).join(",")} ${layer.route.path}`);
      continue;
    }
    if (!isRouter(layer.handle)) continue;
    const marked = (layer.handle as Partial<Pick<EndpointRouter, typeof ENDPOINTS>>)[ENDPOINTS];
    if (!marked) {
      for (const inner of stackOf(layer.handle))
        if (inner.route) undescribed.push(`${Object.keys(inner.route.methods).join(",")} ${inner.route.path}`);
      continue;
    }
    const routes = stackOf(layer.handle).filter((inner) => inner.route);
    const expected = marked.endpoints.map((e) => `${e.method} ${expressPath(e.path, marked.mountPath)}`);
    const actual = routes.flatMap((inner) =>
      Object.keys(inner.route!.methods)
        .filter((m) => m !== "head")
        .map((m) => `${m} ${inner.route!.path}`),
    );
    expect(actual).toEqual(expected);
    described.push(...marked.endpoints.map((e) => `${e.method} ${e.path}`));
  }
  return { described, undescribed };
}

describe("the API's routes and its OpenAPI document", () => {
  it("serves no route that is not defined with defineEndpoint", () => {
    const { undescribed } = mountedRoutes(createApiRouter(t.services!.api));
    expect(undescribed).toEqual([]);
  });

  it("documents exactly the mounted endpoints, once each", async () => {
    const { described } = mountedRoutes(createApiRouter(t.services!.api));
    expect(new Set(described).size).toBe(described.length);
    const res = await request(t.app).get("/api/openapi.json");
    expect(res.status).toBe(200);
    const documented = Object.entries(res.body.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, byMethod]) => Object.keys(byMethod).map((method) => `${method} ${path}`),
    );
    expect(documented.sort()).toEqual([...described].sort());
  });

  it("reaches a handler for every documented operation", async () => {
    const res = await request(t.app).get("/api/openapi.json");
    const origin = t.services!.api.settings.publicOrigin;
    const missed: string[] = [];
    for (const [path, byMethod] of Object.entries(res.body.paths as Record<string, Record<string, unknown>>)) {
      for (const [method, operation] of Object.entries(byMethod)) {
        const produces = JSON.stringify((operation as { responses: unknown }).responses);
        if (produces.includes("text/event-stream")) continue;
        const url = `/api${path.replace(/\{\w+\}/g, "1")}`;
        const call = request(t.app)[method as "get"];
        const answer = await call(url)
          .set("Origin", origin)
          .timeout({ response: 5000 })
          .catch((error: unknown) => ({ status: 0, body: { error: { message: String(error) } } }));
        if (answer.body?.error?.message === "接口不存在") missed.push(`${method} ${path}`);
      }
    }
    expect(missed).toEqual([]);
  });
});
