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
import { liveOperations } from "./modules/live/operations";
import { searchOperations } from "./modules/search/operations";
import { shopOperations } from "./modules/shop/operations";
import { walletOperations } from "./modules/wallet/operations";
import { commerceOperations } from "./modules/orders/operations";
import { groupOperations } from "./modules/groups/operations";
import { giftOperations } from "./modules/gifts/operations";
import type { RequestHandler } from "express";
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

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

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
  ...homeOperations,
  ...courseOperations,
  ...learningOperations,
  ...liveOperations,
  ...shopOperations,
  ...searchOperations,
  ...activitiesOperations,
  ...walletOperations,
  ...commerceOperations,
  ...groupOperations,
  ...giftOperations,
];

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

export function openApiDocument(
  info: { title: string; version: string; serverUrl: string },
  operations = apiOperations,
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const responses: Record<string, unknown> = {
      "200": {
        description: "成功",
        ...(op.response ? { content: { "application/json": { schema: jsonSchemaOf(op.response, "output") } } } : {}),
      },
      default: {
        description: "错误",
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      },
    };
    if (op.auth) responses["401"] = { $ref: "#/components/responses/Unauthorized" };
    let requestBody: unknown;
    if (op.request && "binary" in op.request) {
      const binary = op.request;
      requestBody = {
        required: true,
        description: `最大 ${binary.maxBytes} 字节`,
        content: Object.fromEntries(binary.binary.map((t) => [t, { schema: { type: "string", contentMediaType: t } }])),
      };
    } else if (op.request) {
      requestBody = { required: true, content: { "application/json": { schema: jsonSchemaOf(op.request, "input") } } };
    }
    const parameters = Object.entries(op.params ?? {}).map(([name, p]) => ({
      name,
      in: "path",
      required: true,
      description: p.description,
      schema: { type: p.type },
    }));
    (paths[op.path] ??= {})[op.method] = {
      summary: op.summary,
      tags: [op.tag],
      operationId: `${op.method}${op.path.replace(/[{}]/g, "").replace(/[/-](\w)/g, (_m, c: string) => c.toUpperCase())}`,
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

/** The document, built once per API router (the contracts do not change while it runs). */
export function openApiHandler(ctx: ApiContext): RequestHandler {
  let body: string | null = null;
  return (_req, res) => {
    body ??= JSON.stringify(
      openApiDocument({ title: `${ctx.settings.siteName} API`, version: pkg.version, serverUrl: "/api" }),
    );
    res.setHeader("Cache-Control", "public, max-age=300");
    res.type("application/json").send(body);
  };
}
