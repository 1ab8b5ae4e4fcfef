/**
 * GET /api/openapi.json: an OpenAPI 3.1 description of this API, generated from the zod
 * contracts in shared/contracts, so it cannot drift from what the handlers validate.
 * A module describes its endpoints as a list of `ApiOperation`s and adds the list to
 * `apiOperations` below (one line).
 */
import { liveOperations } from "./modules/live/operations";
import { defineEndpoint, type Endpoint, type HttpMethod } from "./endpoint";
import { z } from "zod";
import pkg from "../package.json" with { type: "json" };
import type { ApiContext } from "./context";
import {
  codeSentSchema,
  completeInfoResultSchema,
  completeInfoSchema,
  deviceSendSchema,
  deviceVerifySchema,
  emailCodeLoginSchema,
  emailLoginSchema,
  emailRegisterSchema,
  emailSendSchema,
  loginResultSchema,
  resetSchema,
  resetSendSchema,
  skipInfoSchema,
  smsLoginSchema,
  smsSendSchema,
  statusOkSchema,
} from "../shared/contracts/auth";
import {
  avatarResultSchema,
  DELETION_COOLING_DAYS,
  deletionRequestSchema,
  deletionStatusSchema,
  deviceListSchema,
  deviceProtectionSchema,
  emailBindSchema,
  emailBindSendSchema,
  meSchema,
  noticeListSchema,
  noticesReadResultSchema,
  noticesReadSchema,
  okSchema,
  passwordChangeSchema,
  phoneBindSchema,
  phoneBindSendSchema,
  profilePatchSchema,
  sessionListSchema,
  AVATAR_MAX_BYTES,
  AVATAR_TYPES,
} from "../shared/contracts/me";
import { viewerSchema } from "../shared/contracts/viewer";

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

const authOperations: ApiOperation[] = [
  {
    method: "post",
    path: "/auth/sms/send",
    summary: "发送短信验证码",
    tag: "auth",
    auth: false,
    request: smsSendSchema,
    response: codeSentSchema,
  },
  {
    method: "post",
    path: "/auth/sms/login",
    summary: "手机号 + 验证码登录（设置会话 Cookie）",
    tag: "auth",
    auth: false,
    request: smsLoginSchema,
    response: loginResultSchema,
  },
  {
    method: "get",
    path: "/auth/me",
    summary: "当前登录的用户（未登录为 null）",
    tag: "auth",
    auth: false,
    response: z.object({ viewer: viewerSchema.nullable() }),
  },
  { method: "post", path: "/auth/logout", summary: "退出登录", tag: "auth", auth: false, response: statusOkSchema },
  {
    method: "post",
    path: "/auth/logout-others",
    summary: "退出其他设备上的登录",
    tag: "auth",
    auth: true,
    response: statusOkSchema,
  },
  ...(
    [
      ["/auth/email/send", "发送邮箱验证码（登录、注册、找回）", emailSendSchema, codeSentSchema, false],
      ["/auth/email/login", "邮箱 + 密码登录", emailLoginSchema, loginResultSchema, false],
      ["/auth/email/code-login", "邮箱 + 验证码登录", emailCodeLoginSchema, loginResultSchema, false],
      ["/auth/email/register", "邮箱注册并登录", emailRegisterSchema, loginResultSchema, false],
      ["/auth/reset/send", "找回账号：发送验证码", resetSendSchema, codeSentSchema, false],
      ["/auth/reset", "找回账号：设置新密码", resetSchema, statusOkSchema, false],
      ["/auth/device/send", "新设备登录确认：发送验证码", deviceSendSchema, codeSentSchema, false],
      ["/auth/device/verify", "新设备登录确认：提交验证码", deviceVerifySchema, loginResultSchema, false],
      ["/auth/info", "完善资料", completeInfoSchema, completeInfoResultSchema, true],
      ["/auth/info/skip", "跳过完善资料", skipInfoSchema, statusOkSchema, true],
    ] as const
  ).map(([path, summary, request, response, auth]): ApiOperation => ({
    method: "post",
    path,
    summary,
    tag: "auth",
    auth,
    request,
    response,
  })),
];

const sessionParam = { id: { type: "string", description: "会话的公开编号（16 位十六进制）" } } as const;

export const meOperations: ApiOperation[] = [
  { method: "get", path: "/me", summary: "个人资料与计数", tag: "me", auth: true, response: meSchema },
  {
    method: "patch",
    path: "/me/profile",
    summary: "修改昵称、性别、地区、个人简介",
    tag: "me",
    auth: true,
    request: profilePatchSchema,
    response: meSchema,
  },
  {
    method: "post",
    path: "/me/avatar",
    summary: "上传头像（JPEG/PNG/WebP 原始字节，≤ 5 MB；保存为 256×256 WebP）",
    tag: "me",
    auth: true,
    request: { binary: AVATAR_TYPES, maxBytes: AVATAR_MAX_BYTES },
    response: avatarResultSchema,
  },
  {
    method: "post",
    path: "/me/password",
    summary: "设置或修改登录密码（退出其他登录）",
    tag: "me",
    auth: true,
    request: passwordChangeSchema,
    response: okSchema,
  },
  {
    method: "post",
    path: "/me/phone/send",
    summary: "向新手机号发送绑定验证码",
    tag: "me",
    auth: true,
    request: phoneBindSendSchema,
    response: codeSentSchema,
  },
  {
    method: "post",
    path: "/me/phone",
    summary: "绑定或更换手机号",
    tag: "me",
    auth: true,
    request: phoneBindSchema,
    response: meSchema,
  },
  {
    method: "post",
    path: "/me/email/send",
    summary: "向新邮箱发送绑定验证码",
    tag: "me",
    auth: true,
    request: emailBindSendSchema,
    response: codeSentSchema,
  },
  {
    method: "post",
    path: "/me/email",
    summary: "绑定或更换邮箱",
    tag: "me",
    auth: true,
    request: emailBindSchema,
    response: meSchema,
  },
  {
    method: "post",
    path: "/me/device-protection",
    summary: "开启或关闭登录设备保护",
    tag: "me",
    auth: true,
    request: deviceProtectionSchema,
    response: meSchema,
  },
  {
    method: "get",
    path: "/me/devices",
    summary: "已绑定的登录设备",
    tag: "me",
    auth: true,
    response: deviceListSchema,
  },
  {
    method: "delete",
    path: "/me/devices/{id}",
    summary: "移除设备并退出它上面的登录",
    tag: "me",
    auth: true,
    params: { id: { type: "integer", description: "设备编号" } },
    response: okSchema,
  },
  {
    method: "get",
    path: "/me/sessions",
    summary: "正在登录的会话（标出当前会话）",
    tag: "me",
    auth: true,
    response: sessionListSchema,
  },
  {
    method: "delete",
    path: "/me/sessions/{id}",
    summary: "退出一处其他登录",
    tag: "me",
    auth: true,
    params: sessionParam,
    response: okSchema,
  },
  {
    method: "post",
    path: "/me/deletion",
    summary: `申请注销账号（${DELETION_COOLING_DAYS} 天冷静期）`,
    tag: "me",
    auth: true,
    request: deletionRequestSchema,
    response: deletionStatusSchema,
  },
  {
    method: "post",
    path: "/me/deletion/cancel",
    summary: "撤销注销申请",
    tag: "me",
    auth: true,
    response: deletionStatusSchema,
  },
];

export const noticeOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/notices",
    summary: "最近 20 条通知与未读数",
    tag: "notices",
    auth: true,
    response: noticeListSchema,
  },
  {
    method: "post",
    path: "/notices/read",
    summary: "标记通知已读（不传 ids 则全部）",
    tag: "notices",
    auth: true,
    request: noticesReadSchema,
    response: noticesReadResultSchema,
  },
];

/** Every described endpoint; modules add their lists here. */
export const apiOperations: ApiOperation[] = [
  ...authOperations,
  ...meOperations,
  ...noticeOperations,
  ...liveOperations,
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
