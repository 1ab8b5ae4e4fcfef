/**
 * Roles on every staff endpoint, walked from the OpenAPI document (built from the mounted
 * endpoint definitions, so an endpoint added later is covered without touching this file):
 * anonymous callers get 401, learners 403 (or 404), and teachers 403 on operator endpoints.
 * Every endpoint below /admin must declare the operator role.
 */
import { describe, expect, it } from "vitest";
import { commerceHarness, type Json } from "./commerce";

const h = commerceHarness("135");

interface StaffOperation {
  method: string;
  path: string;
  role: "teacher" | "operator" | undefined;
}

async function staffOperations(): Promise<StaffOperation[]> {
  const doc = (await h.call(null, "GET", "/api/openapi.json")).body as Json;
  const ops: StaffOperation[] = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const role = op["x-role"] as StaffOperation["role"];
      if (role || path.startsWith("/admin/") || path.startsWith("/teach/")) ops.push({ method, path, role });
    }
  }
  return ops;
}

/** A concrete address for a documented path: every parameter gets a value that parses. */
const concrete = (path: string) => `/api${path.replace(/\{(\w+)\}/g, "1")}`;

describe("staff endpoints", () => {
  it("every endpoint below /admin is for operators only", async () => {
    const ops = await staffOperations();
    const admin = ops.filter((op) => op.path.startsWith("/admin/"));
    expect(admin.length).toBeGreaterThan(0);
    expect(admin.filter((op) => op.role !== "operator").map((op) => `${op.method} ${op.path}`)).toEqual([]);
  });

  it("refuses anonymous callers, learners, and teachers where operators are required", async () => {
    const ops = await staffOperations();
    const learner = await h.learner("learner");
    const teacher = await h.learner("teacher");
    const wrong: string[] = [];
    for (const op of ops) {
      const method = op.method.toUpperCase();
      const body = method === "GET" || method === "HEAD" ? undefined : {};
      const anon = await h.call(null, method, concrete(op.path), body);
      if (anon.status !== 401) wrong.push(`${method} ${op.path} anonymous → ${anon.status}`);
      const asLearner = await h.call(learner, method, concrete(op.path), body);
      if (![403, 404].includes(asLearner.status)) wrong.push(`${method} ${op.path} learner → ${asLearner.status}`);
      if (op.role === "operator" || op.path.startsWith("/admin/")) {
        const asTeacher = await h.call(teacher, method, concrete(op.path), body);
        if (![403, 404].includes(asTeacher.status)) wrong.push(`${method} ${op.path} teacher → ${asTeacher.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("lets an operator through to the handler", async () => {
    const operator = await h.learner("operator");
    const res = await h.call(operator, "GET", "/api/admin/audit");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ rows: [], total: 0, page: 1, pageSize: 20 });
  });
});

describe("staff pages", () => {
  const page = (who: Awaited<ReturnType<typeof h.learner>> | null, path: string) =>
    fetch(`${h.base()}${path}`, {
      headers: { Accept: "text/html", ...(who ? { Cookie: who.cookie } : {}) },
      redirect: "manual",
    });

  it("send anonymous visitors to log in and show learners and teachers the 404 page", async () => {
    expect((await page(null, "/admin/audit")).status).toBe(302);
    expect((await page(await h.learner("learner"), "/admin/audit")).status).toBe(404);
    expect((await page(await h.learner("teacher"), "/admin")).status).toBe(404);
  });

  it("are never cached and never indexed", async () => {
    const res = await page(await h.learner("operator"), "/admin/audit");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(res.headers.get("x-robots-tag")).toContain("noindex");
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).toContain("审计日志");
    const teach = await page(await h.learner("teacher"), "/teach");
    expect(teach.headers.get("x-robots-tag")).toContain("noindex");
  });
});
