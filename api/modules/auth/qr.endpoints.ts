/**
 * Scan-code (QR) login. The computer asks for a ticket and shows it as a QR code; a phone that
 * is already logged in opens `/m/qr/<ticket>`, sees which device asks (browser, system, coarse
 * IP, time) and confirms or cancels; the computer follows the ticket's state over Server-Sent
 * Events and claims a fresh session once it is confirmed.
 *
 * Against QRLJacking (reliability-security §1, case 8): the ticket is bound to the browser that
 * asked (an httpOnly `qr_bind` cookie, stored only as its SHA-256), lives 2 minutes, is used
 * once, and only that browser can follow or claim it. The first phone that scans holds it.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { Request, Response } from "express";
import { parse as parseCookies } from "cookie";
import { z } from "zod";
import type { ApiContext } from "../../context";
import {
  type LoginResult,
  loginResultSchema,
  qrDecisionSchema,
  type QrTicketCreated,
  qrTicketCreatedSchema,
  type QrTicketView,
  qrTicketViewSchema,
} from "../../../shared/contracts/auth";
import { defineEndpoint, type Endpoint } from "../../endpoint";
import { ApiError, clientIp, notFound, tooManyRequests } from "../../http";
import { qrCodeSvg } from "../../qr-code";
import { enforce } from "../../rate-limit";
import { openGuardedStream } from "../../sse";
import { deviceName } from "./devices";
import { accountDisabled, completeLogin } from "./login";
import {
  FINAL_FOR_STREAM,
  QR_TTL_MS,
  QrEventHub,
  type QrStatus,
  STATUS_RANK,
  TICKET_PATTERN,
  coarseIp,
  findTicket,
  publicStatus,
  publishStatus,
} from "./qr-tickets";
import { hashToken } from "./sessions";

const BIND_COOKIE = "qr_bind";
const BIND_COOKIE_PATH = "/api/auth/qr";
/** A browser may follow one ticket from a few tabs, not from hundreds of connections. */
const MAX_STREAMS_PER_TICKET = 5;

const emptyBody = z.strictObject({});

const STATE_MESSAGES: Record<QrStatus, string> = {
  pending: "手机上还没有确认登录",
  scanned: "手机上还没有确认登录",
  confirmed: "已经在手机上确认过了",
  cancelled: "已在手机上取消这次登录",
  consumed: "这个二维码已经用过了",
  expired: "二维码已过期，请刷新后重新扫码",
};

/** A ticket that cannot take this step answers with its state, so the screen can offer a new code. */
const stateConflict = (status: QrStatus) => new ApiError(409, "qr_state", STATE_MESSAGES[status], { status });

function readBindSecret(req: Request): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  const value = parseCookies(header)[BIND_COOKIE];
  return value && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

const ticketParam = { ticket: z.string().describe("二维码票据（32 位 base64url）") };

/** The ticket in the path, if this browser is the one it was made for; else 404 (nothing to learn). */
async function boundTicket(ctx: ApiContext, req: Request) {
  const secret = readBindSecret(req);
  const ticket = await findTicket(ctx.database, String(req.params.ticket ?? ""));
  if (!secret || !ticket || !sameHash(ticket.browser_hash, hashToken(secret))) throw notFound("二维码不存在或已失效");
  return ticket;
}

async function ticketOrNotFound(ctx: ApiContext, req: Request) {
  const ticket = await findTicket(ctx.database, String(req.params.ticket ?? ""));
  if (!ticket) throw notFound("二维码不存在或已失效");
  return ticket;
}

async function streamTicket(
  ctx: ApiContext,
  hub: QrEventHub,
  req: Request,
  res: Response,
  id: string,
  expiresAt: Date,
) {
  let lastRank = -1;
  // A browser that comes back after a lost connection gets the current state first.
  const stream = openGuardedStream(req, res, ctx.eventStreams);
  const send = (status: QrStatus) => {
    if (stream.closed || STATUS_RANK[status] <= lastRank) return;
    lastRank = STATUS_RANK[status];
    const event = `data: ${JSON.stringify({ status })}\n\n`;
    if (FINAL_FOR_STREAM.has(status)) stream.end(event);
    else stream.write(event);
  };
  if (stream.closed) return;

  // Listen before reading, so a change between the two is not missed (ranks drop repeats).
  stream.onEnd(await hub.subscribe(id, send));
  if (stream.closed) return;
  const current = await findTicket(ctx.database, id);
  if (!current) {
    send("expired");
    return;
  }
  send(publicStatus(current, ctx.now()));
  if (stream.closed) return;

  const expiry = setTimeout(
    () => {
      // The time is up: the ticket is expired unless it finished meanwhile on another node.
      findTicket(ctx.database, id)
        .then((latest) => {
          const status = latest?.status;
          send(status === "confirmed" || status === "cancelled" || status === "consumed" ? status : "expired");
        })
        .catch(() => send("expired"));
    },
    Math.min(QR_TTL_MS, Math.max(0, expiresAt.getTime() - ctx.now().getTime())),
  );
  stream.onEnd(() => clearTimeout(expiry));
}

/** Phone: confirm or cancel, from pending or scanned only, before expiry, by the account that scanned. */
function decisionEndpoint(ctx: ApiContext, action: "confirm" | "cancel", summary: string): Endpoint {
  const to = action === "confirm" ? "confirmed" : "cancelled";
  return defineEndpoint({
    method: "post",
    path: `/auth/qr/{ticket}/${action}`,
    summary,
    tag: "auth",
    auth: true,
    params: ticketParam,
    input: emptyBody,
    output: qrDecisionSchema,
    handler: async (req, res, { auth }) => {
      const ticket = await ticketOrNotFound(ctx, req);
      const now = ctx.now();
      const moved = await ctx.database.db
        .updateTable("qr_tickets")
        .set({ status: to, user_id: auth.user.id })
        .where("id", "=", ticket.id)
        .where("status", "in", ["pending", "scanned"])
        .where("expires_at", ">", now)
        .where((eb) => eb.or([eb("user_id", "is", null), eb("user_id", "=", auth.user.id)]))
        .returning("id")
        .executeTakeFirst();
      if (!moved) {
        const latest = (await findTicket(ctx.database, ticket.id)) ?? ticket;
        const status = publicStatus(latest, now);
        if ((status === "pending" || status === "scanned") && latest.user_id !== auth.user.id) {
          throw new ApiError(409, "qr_taken", "这个二维码已被其他账号扫描", { status });
        }
        throw stateConflict(status);
      }
      await publishStatus(ctx.database, ticket.id, to);
      if (action === "confirm") ctx.logger.info({ event: "qr_confirm", userId: auth.user.id }, "qr confirmed");
      res.json({ status: to });
    },
  });
}

export function qrEndpoints(ctx: ApiContext): Endpoint[] {
  const hub = new QrEventHub(ctx.database, ctx.now, (err) =>
    ctx.logger.warn({ err }, "scan-code tickets: re-reading after a LISTEN loss failed"),
  );

  return [
    defineEndpoint({
      method: "post",
      path: "/auth/qr",
      summary: "扫码登录（电脑端）：生成 2 分钟有效的二维码票据，绑定到本浏览器（httpOnly Cookie）",
      tag: "auth",
      auth: false,
      input: emptyBody,
      output: qrTicketCreatedSchema,
      handler: async (req, res) => {
        const now = ctx.now();
        const ip = clientIp(req);
        await enforce(
          ctx.database,
          [
            { key: `qr:create:ip:${ip}`, max: 20, windowSeconds: 60 },
            { key: `qr:create:ip-hour:${ip}`, max: 300, windowSeconds: 3600 },
          ],
          now,
        );
        const ticket = randomBytes(24).toString("base64url");
        const bindSecret = randomBytes(32).toString("base64url");
        const expiresAt = new Date(now.getTime() + QR_TTL_MS);
        // Tickets are worth nothing after they expire; keep a day for support questions.
        await ctx.database.db
          .deleteFrom("qr_tickets")
          .where("expires_at", "<", new Date(now.getTime() - 86_400_000))
          .execute();
        await ctx.database.db
          .insertInto("qr_tickets")
          .values({
            id: ticket,
            browser_hash: hashToken(bindSecret),
            requester_ua: (req.get("user-agent") ?? "").slice(0, 300),
            requester_ip: ip,
            created_at: now,
            expires_at: expiresAt,
          })
          .execute();
        const confirmUrl = `${ctx.settings.publicOrigin}/m/qr/${ticket}`;
        const qrSvg = await qrCodeSvg(confirmUrl);
        res.cookie(BIND_COOKIE, bindSecret, {
          httpOnly: true,
          secure: ctx.settings.cookies.secure,
          sameSite: "strict",
          path: BIND_COOKIE_PATH,
          maxAge: QR_TTL_MS + 60_000,
        });
        res
          .status(201)
          .json({ ticket, confirmUrl, qrSvg, expiresAt: expiresAt.toISOString() } satisfies QrTicketCreated);
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/auth/qr/{ticket}/events",
      summary:
        "扫码登录（电脑端）：票据状态事件流（text/event-stream，data 为 {status}；每个浏览器仅限自己的票据，每张票据至多 5 个连接）",
      tag: "auth",
      auth: false,
      params: ticketParam,
      produces: "text/event-stream",
      handler: async (req, res) => {
        const ticket = await boundTicket(ctx, req);
        if (hub.watcherCount(ticket.id) >= MAX_STREAMS_PER_TICKET) throw tooManyRequests(5);
        await streamTicket(ctx, hub, req, res, ticket.id, ticket.expires_at);
      },
    }),
    defineEndpoint({
      method: "post",
      path: "/auth/qr/{ticket}/claim",
      summary: "扫码登录（电脑端）：手机确认后，由生成票据的浏览器换取登录会话（仅一次）",
      tag: "auth",
      auth: false,
      params: ticketParam,
      input: emptyBody,
      output: loginResultSchema,
      handler: async (req, res) => {
        const ticket = await boundTicket(ctx, req);
        const now = ctx.now();
        const claimed = await ctx.database.db
          .updateTable("qr_tickets")
          .set({ status: "consumed" })
          .where("id", "=", ticket.id)
          .where("browser_hash", "=", ticket.browser_hash)
          .where("status", "=", "confirmed")
          .where("expires_at", ">", now)
          .returning("user_id")
          .executeTakeFirst();
        if (!claimed) {
          const latest = await findTicket(ctx.database, ticket.id);
          throw stateConflict(latest ? publicStatus(latest, now) : "expired");
        }
        await publishStatus(ctx.database, ticket.id, "consumed");
        const user =
          claimed.user_id === null
            ? undefined
            : await ctx.database.db
                .selectFrom("users")
                .selectAll()
                .where("id", "=", claimed.user_id)
                .executeTakeFirst();
        if (!user) throw accountDisabled();
        const result: LoginResult = await completeLogin(ctx, req, res, user);
        ctx.logger.info({ event: "login", method: "qr", userId: user.id }, "qr login");
        res.json(result);
      },
    }),
    defineEndpoint({
      method: "get",
      path: "/auth/qr/{ticket}",
      summary: "扫码登录（手机端）：查看请求登录的设备（浏览器、系统、大致 IP、时间）；打开即标记为已扫描",
      tag: "auth",
      auth: true,
      params: ticketParam,
      output: qrTicketViewSchema,
      handler: async (req, res, { auth }) => {
        if (!TICKET_PATTERN.test(String(req.params.ticket ?? ""))) throw notFound("二维码不存在或已失效");
        const now = ctx.now();
        const scanned = await ctx.database.db
          .updateTable("qr_tickets")
          .set({ status: "scanned", user_id: auth.user.id })
          .where("id", "=", String(req.params.ticket))
          .where("status", "=", "pending")
          .where("expires_at", ">", now)
          .returningAll()
          .executeTakeFirst();
        if (scanned) await publishStatus(ctx.database, scanned.id, "scanned");
        const ticket = scanned ?? (await ticketOrNotFound(ctx, req));
        res.json({
          status: publicStatus(ticket, now),
          requester: {
            device: deviceName(ticket.requester_ua),
            ip: coarseIp(ticket.requester_ip),
            createdAt: ticket.created_at.toISOString(),
          },
          expiresAt: ticket.expires_at.toISOString(),
        } satisfies QrTicketView);
      },
    }),
    decisionEndpoint(ctx, "confirm", "扫码登录（手机端）：确认登录（仅扫描它的账号，且在待确认、未过期时）"),
    decisionEndpoint(ctx, "cancel", "扫码登录（手机端）：取消这次登录（仅扫描它的账号，且在待确认、未过期时）"),
  ];
}
