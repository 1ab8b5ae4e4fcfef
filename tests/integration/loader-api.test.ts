/**
 * Page loaders reach the in-process API without a socket (decision 013): a page whose loader
 * calls the API opens no second connection to the server it is served from.
 */
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

  it("the browser still calls /api over HTTP", async () => {
    const res = await fetch(`${served.base}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });
});
