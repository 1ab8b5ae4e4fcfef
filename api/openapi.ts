/**
 * GET /api/openapi.json: an OpenAPI 3.1 description of this API, generated from the zod
 * contracts in shared/contracts, so it cannot drift from what the handlers validate.
 * A module describes its endpoints as a list of `ApiOperation`s and adds the list to
 * `apiOperations` below (one line).
 */
import { activitiesOperations } from "./modules/activities/operations";
import { courseOperations } from "./modules/courses/operations";
import { homeOperations } from "./modules/home/operations";
import { learningOperations } from "./modules/learning/operations";
import { searchOperations } from "./modules/search/operations";
import { shopOperations } from "./modules/shop/operations";
import { walletOperations } from "./modules/wallet/operations";
import { commerceOperations } from "./modules/orders/operations";
import { groupOperations } from "./modules/groups/operations";
import { defineEndpoint, type Endpoint, type HttpMethod } from "./endpoint";
import { z } from "zod";
import pkg from "../package.json" with { type: "json" };
import type { ApiContext } from "./context";

export interface ApiOperation {
  method: HttpMethod;
  /** Below /api, with OpenAPI path parameters: `/me/devices/{id}`. */
  path: string;
  summary: string;
  tag: string;
  /** Needs a signed-in session (401 without). */
  auth: boolean;
  /** A JSON body; or `binary` for a raw upload of the listed media types. */
  request?: z.ZodType | { binary: readonly string[]; maxBytes: number };
  response?: z.ZodType;
  /** Path parameters and their JSON Schema types. */
  params?: Record<string, { type: "string" | "integer"; description: string }>;
}

/** Every described endpoint; modules add their lists here. */
export const apiOperations: ApiOperation[] = [
  ...homeOperations,
  ...courseOperations,
  ...learningOperations,
  ...shopOperations,
  ...searchOperations,
  ...activitiesOperations,
  ...walletOperations,
  ...commerceOperations,
  ...groupOperations,
];

/** What the document needs of an endpoint. */
export type DescribedEndpoint = Omit<Endpoint, "run" | "before">;

/** Lists not yet written with defineEndpoint, in the shape the document reads. */
export const legacyOperations: DescribedEndpoint[] = apiOperations.map((op) => ({
  method: op.method,
  path: op.path,
  summary: op.summary,
  tag: op.tag,
  auth: op.auth,
  ...(op.request && "binary" in op.request ? { raw: op.request } : op.request ? { input: op.request } : {}),
  ...(op.response ? { output: op.response } : {}),
  ...(op.params ? { params: op.params } : {}),
}));

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
      ...Object.entries(op.params ?? {}).map(([name, p]) => ({
        name,
        in: "path",
        required: true,
        description: p.description,
        schema: { type: p.type },
      })),
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
        openApiDocument({ title: `${ctx.settings.siteName} API`, version: pkg.version, serverUrl: "/api" }, [
          ...endpoints(),
          ...legacyOperations,
        ]),
      );
      res.setHeader("Cache-Control", "public, max-age=300");
      res.type("application/json").send(body);
    },
  });
}
