/**
 * GET /api/openapi.json: an OpenAPI 3.1 description of this API, built from the same
 * `defineEndpoint` definitions the API router mounts (api/endpoint.ts), whose zod contracts in
 * shared/contracts are also what validates requests: the document cannot drift from the routes.
 */
import { defineEndpoint, type Endpoint, type PathParam } from "./endpoint";
import { z } from "zod";
import pkg from "../package.json" with { type: "json" };
import type { ApiContext } from "./context";

/** What the document needs of an endpoint. */
export type DescribedEndpoint = Omit<Endpoint, "run" | "before">;

type JsonSchema = Record<string, unknown>;

function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

const errorSchema: JsonSchema = {
  type: "object",
  properties: {
    error: {
      type: "object",
      properties: { code: { type: "string" }, message: { type: "string" }, details: {} },
      required: ["code", "message"],
    },
  },
  required: ["error"],
};

/** Query parameters from an object schema: one entry per property. */
function queryParameters(schema: z.ZodType) {
  const json = jsonSchemaOf(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: "query",
    required: json.required?.includes(name) ?? false,
    ...(typeof property.description === "string" ? { description: property.description } : {}),
    schema: property,
  }));
}

/**
 * A path parameter as what the handler receives (an id as an integer), or as the text the path
 * carries when that is not expressible (a code normalised on the way in).
 */
function pathParameter(name: string, param: PathParam) {
  const received = jsonSchemaOf(param, "output");
  const { description, ...schema } = "type" in received ? received : jsonSchemaOf(param, "input");
  return { name, in: "path", required: true, description, schema };
}

export function openApiDocument(
  info: { title: string; version: string; serverUrl: string },
  operations: readonly DescribedEndpoint[],
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const success = op.output
      ? { content: { "application/json": { schema: jsonSchemaOf(op.output, "output") } } }
      : op.produces
        ? { content: { [op.produces]: {} } }
        : {};
    const responses: Record<string, unknown> = {
      "200": { description: "成功", ...success },
      default: {
        description: "错误",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      },
    };
    if (op.auth) responses["401"] = { $ref: "#/components/responses/Unauthorized" };
    const refusals = [
      ...(op.role ? [`仅限${op.role === "operator" ? "运营" : "教师与运营"}账号`] : []),
      ...(op.stepUp ? ["需要 10 分钟内验证过登录密码或两步验证码（step_up_required，见 POST /auth/step-up）"] : []),
    ];
    if (refusals.length) responses["403"] = { description: refusals.join("；") };
    let requestBody: unknown;
    if (op.raw) {
      const raw = op.raw;
      requestBody = {
        required: true,
        description: `最大 ${raw.maxBytes} 字节`,
        content: Object.fromEntries(raw.binary.map((t) => [t, { schema: { type: "string", contentMediaType: t } }])),
      };
    } else if (op.input) {
      requestBody = { required: true, content: { "application/json": { schema: jsonSchemaOf(op.input, "input") } } };
    }
    const parameters = [
      ...Object.entries(op.params ?? {}).map(([name, param]) => pathParameter(name, param)),
      ...(op.query ? queryParameters(op.query) : []),
    ];
    const operationId = `${op.method}${op.path.replace(/[{}.]/g, "").replace(/[/-](\w)/g, (_m, c: string) => c.toUpperCase())}`;
    const byMethod = (paths[op.path] ??= {});
    if (byMethod[op.method]) throw new Error(`${op.method.toUpperCase()} ${op.path} is defined twice`);
    byMethod[op.method] = {
      summary: op.summary,
      tags: [op.tag],
      operationId,
      ...(op.auth ? { security: [{ session: [] }] } : {}),
      ...(op.role ? { "x-role": op.role } : {}),
      ...(op.stepUp ? { "x-step-up": true } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: info.title, version: info.version },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      schemas: { Error: errorSchema },
      responses: {
        Unauthorized: {
          description: "未登录",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: "sid", description: "HTTPS 下为 __Host-sid" },
      },
    },
  };
}

/** GET /api/openapi.json: the document of every mounted endpoint, built once per API router. */
export function openApiEndpoint(ctx: ApiContext, endpoints: () => readonly DescribedEndpoint[]): Endpoint {
  let body: string | null = null;
  return defineEndpoint({
    method: "get",
    path: "/openapi.json",
    summary: "本接口的 OpenAPI 3.1 描述",
    tag: "meta",
    auth: false,
    produces: "application/json",
    handler: (_req, res) => {
      body ??= JSON.stringify(
        openApiDocument(
          { title: `${ctx.settings.siteName} API`, version: pkg.version, serverUrl: "/api" },
          endpoints(),
        ),
      );
      res.setHeader("Cache-Control", "public, max-age=300");
      res.type("application/json").send(body);
    },
  });
}
