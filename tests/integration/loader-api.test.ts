/**
 * Page loaders reach the in-process API without a socket (decision 013): a page whose loader
 * calls the API opens no second connection to the server it is served from, and the visitor's
 * session is read once for the page, not again for each of its loaders' calls.
 */
import type { Socket } from "node:net";
import { type KyselyPlugin, type RootOperationNode, SelectQueryNode, TableNode } from "kysely";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, sessionCookieName } from "../../api/modules/auth/sessions";
import { BROWSER_UA, closeServer, listen, testApp } from "./helpers";

let app: Awaited<ReturnType<typeof testApp>>;
let served: Awaited<ReturnType<typeof listen>>;
const peers: string[] = [];

beforeAll(async () => {
  app = await testApp();
  served = await listen(app.app);
  served.server.on("connection", (socket: Socket) => peers.push(`${socket.remoteAddress}:${socket.remotePort}`));
});

afterAll(async () => {
  await closeServer(served.server);
  await app.dispose();
});

describe("loaders and the API in this process", () => {
  it("a page whose loader asks the API is served over one connection: the visitor's", async () => {
    peers.length = 0;
    const res = await fetch(`${served.base}/__test/slow?ms=1&api=1`, {
      headers: { "User-Agent": BROWSER_UA, Connection: "close" },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("接口正常");
    expect(peers).toHaveLength(1);
  });

  it("a signed-in page reads its visitor's session once, however many of its loaders' calls need it", async () => {
    const api = app.services!.api;
    const user = await api.database.db
      .insertInto("users")
      .values({ phone: "13912345681", nickname: "一读会话" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const token = await createSession(api.database, user.id, { userAgent: BROWSER_UA, ip: "127.0.0.1" });
    const cookie = `${sessionCookieName(api.settings.cookies)}=${token}`;
    // Counts the queries that read the sessions table, from the page and from the API alike.
    let sessionReads = 0;
    const counter: KyselyPlugin = {
      transformQuery({ node }) {
        const froms = SelectQueryNode.is(node) ? (node.from?.froms ?? []) : [];
        if (froms.some((f) => TableNode.is(f) && f.table.identifier.name === "sessions")) sessionReads++;
        return node as RootOperationNode;
      },
      transformResult: async ({ result }) => result,
    };
    const db = api.database.db;
    api.database.db = db.withPlugin(counter);
    try {
      // /my: its loader asks the API for the account, the courses, the wallet and the overview.
      const res = await request(app.app).get("/my").set("User-Agent", BROWSER_UA).set("Cookie", cookie);
      expect(res.status).toBe(200);
      expect(res.text).toContain("一读会话");
      expect(sessionReads).toBe(1);
      // The browser's own calls still read the session, each for itself.
      sessionReads = 0;
      const me = await request(app.app).get("/api/me").set("Cookie", cookie);
      expect(me.status).toBe(200);
      expect(sessionReads).toBe(1);
    } finally {
      api.database.db = db;
    }
  });

  it("the browser still calls /api over HTTP", async () => {
    const res = await fetch(`${served.base}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });
});
