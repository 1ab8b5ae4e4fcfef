/**
 * The API as server-side page loaders reach it when it runs in this process (no API_ORIGIN):
 * each call is injected into an Express app that holds the very router mounted at /api
 * (light-my-request), so it opens no socket. A loader therefore never depends on this
 * process's own listener, which closes while the process drains (decision 013).
 *
 * This app is reachable only through `fetchFor`, never from the network. The client address
 * the API sees (rate limits read `req.ip`) is the fake socket's, set here from the address the
 * site resolved through its trusted proxies; forwarded headers are not trusted at all.
 *
 * The session is read once per page: the page read it already (to know its viewer), and hands
 * what it read to `fetchFor`; the API's own session middleware finds it in place and does not
 * read it again for each loader's call. It travels in this process only (an async-local store
 * around the injected call), never in a header a request could carry.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import express, { type Express, type Router } from "express";
import inject from "light-my-request";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import { handOverJson, type JsonHandOver } from "../api/index";
import { JSON_VALUE } from "../shared/ajax";
import { serializeRequest, serializeResponse } from "./logger";

/** The origin loaders' URLs carry on the in-process path; it names no host anyone can reach. */
export const IN_PROCESS_ORIGIN = "http://api.in-process.invalid";

const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;
const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

/** The session the page read for its visitor: who is signed in (null: nobody; declared in api/locals.d.ts). */
export type PageSession = NonNullable<Express.Locals["pageSession"]>;

interface InProcessCall {
  /** The page's session, for a reading call. */
  session?: PageSession;
  /** Where the API's `res.json` puts its answer, once the call's first middleware ran. */
  handOver?: JsonHandOver;
}

/** A body that writes the handed-over value as JSON only when something reads it. */
function jsonBody(json: { value: unknown }): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      controller.enqueue(new TextEncoder().encode(JSON.stringify(json.value)));
      controller.close();
    },
  });
}

export interface InProcessApi {
  /**
   * A fetch answered by the in-process API, which sees the caller at `clientIp`. With `session`
   * (what the page read of the visitor's session cookie, the cookie the calls carry) the API takes
   * it as this call's session instead of reading it again.
   */
  fetchFor(clientIp: string, session?: PageSession): typeof fetch;
}

/**
 * light-my-request re-parents an Express app's request and response prototypes onto its fake
 * ones. Those prototypes are shared by every Express app of the process: give this app private
 * copies, so the site's real requests keep theirs.
 */
function isolatePrototypes(app: Express) {
  for (const proto of [app.request, app.response]) {
    const shared: object = Object.getPrototypeOf(proto);
    Object.setPrototypeOf(
      proto,
      Object.create(Object.getPrototypeOf(shared), Object.getOwnPropertyDescriptors(shared)),
    );
  }
}

export function createInProcessApi(router: Router, logger: Logger): InProcessApi {
  const app = express();
  app.disable("x-powered-by");
  // The socket address is the visitor's, set by fetchFor; no header may change it.
  app.set("trust proxy", false);
  isolatePrototypes(app);
  app.use(
    pinoHttp({
      logger,
      // The page's request id travels with its loader calls (only fetchFor sends requests here).
      genReqId: (req: IncomingMessage) => {
        const id = req.headers["x-request-id"];
        return typeof id === "string" && REQUEST_ID.test(id) ? id : randomUUID();
      },
      customProps: () => ({ inProcess: true }),
      serializers: { req: serializeRequest, res: serializeResponse },
    }),
  );
  // Each injected call runs in a store of its own: the page's session, and where its JSON answer goes.
  const calls = new AsyncLocalStorage<InProcessCall>();
  app.use((_req, res, next) => {
    const call = calls.getStore();
    if (call) {
      // Read by the API's session middleware (api/modules/auth/guard.ts), which then reads nothing.
      if (call.session) res.locals.auth = call.session.auth;
      call.handOver = handOverJson(res);
    }
    next();
  });
  app.use("/api", router);

  return {
    fetchFor(clientIp, session) {
      return async (input, init) => {
        const request = new Request(input, init);
        const url = new URL(request.url);
        if (url.origin !== IN_PROCESS_ORIGIN) throw new TypeError(`not an in-process API URL: ${url.origin}`);
        request.signal.throwIfAborted();
        const method = request.method.toUpperCase();
        const body = method === "GET" || method === "HEAD" ? undefined : Buffer.from(await request.arrayBuffer());
        // Dispatched here (`.end()`), inside the page session's store, not when awaited below.
        const call = () =>
          inject(app, {
            method: method as "GET",
            url: url.pathname + url.search,
            headers: Object.fromEntries(request.headers),
            ...(body?.length ? { payload: body } : {}),
            remoteAddress: clientIp,
            // Ends the API's request (its handlers see the client go) when the loader gives up.
            signal: request.signal,
          }).end();
        // Reading calls only: a call that changes something (signing out) reads the session itself.
        const reading = method === "GET" || method === "HEAD";
        const store: InProcessCall = { session: reading ? session : undefined };
        const injected = calls.run(store, call);
        // The loader stops waiting at once, whatever the handler still does.
        const aborted = new Promise<never>((_, reject) => {
          request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true });
        });
        const reply = await Promise.race([injected, aborted]);
        const headers = new Headers();
        for (const [name, value] of Object.entries(reply.headers)) {
          if (value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [value]) headers.append(name, String(v));
        }
        const empty = NULL_BODY_STATUS.has(reply.statusCode) || method === "HEAD";
        const json = store.handOver?.json;
        if (!json || empty) {
          return new Response(empty ? null : new Uint8Array(reply.rawPayload), { status: reply.statusCode, headers });
        }
        const response = new Response(jsonBody(json), { status: reply.statusCode, headers });
        Object.defineProperty(response, JSON_VALUE, { value: json.value });
        return response;
      };
    },
  };
}
