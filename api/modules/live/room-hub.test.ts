/**
 * The online count across nodes: a node's count is kept while it keeps announcing it, and
 * forgotten 45 s after it was last heard from (a node that died stops counting).
 */
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Database, openDatabase } from "../../db/database";
import { LiveRoomHub, PRESENCE_TTL_MS, publishRoomEvent } from "./room-hub";

let database: Database;
beforeAll(async () => {
  database = await openDatabase({});
});
afterAll(() => database.close());

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(check(), what).toBe(true);
};

it("counts its own streams and other nodes' announced ones, until a silent node expires", async () => {
  let now = 1_000_000;
  const hub = new LiveRoomHub(database, pino({ level: "silent" }), () => now);
  const seen: number[] = [];
  const stop = await hub.subscribe(7, { chat() {}, state() {}, online: (n) => seen.push(n) });
  expect(hub.online(7)).toBe(1);

  // Another node announces three viewers of room 7, then falls silent (it crashed).
  await publishRoomEvent(database, { type: "presence", liveId: 7, node: "node-that-dies", count: 3 });
  await until(() => hub.online(7) === 4, "the other node's viewers are counted");
  expect(seen.at(-1)).toBe(4);
  // Other rooms are not affected.
  expect(hub.online(8)).toBe(0);

  now += PRESENCE_TTL_MS - 1000;
  expect(hub.online(7)).toBe(4);
  now += 2000;
  expect(hub.online(7)).toBe(1);

  // A node that says it has nobody left is dropped at once.
  now += 1;
  await publishRoomEvent(database, { type: "presence", liveId: 7, node: "other", count: 2 });
  await until(() => hub.online(7) === 3, "a second node");
  await publishRoomEvent(database, { type: "presence", liveId: 7, node: "other", count: 0 });
  await until(() => hub.online(7) === 1, "the second node leaves");
  stop();
  expect(hub.online(7)).toBe(0);
});

it("answers a node that asks, so a new node learns the counts at once", async () => {
  const hub = new LiveRoomHub(database, pino({ level: "silent" }));
  const stop = await hub.subscribe(9, { chat() {}, state() {}, online() {} });
  const other = new LiveRoomHub(database, pino({ level: "silent" }));
  const stopOther = await other.subscribe(9, { chat() {}, state() {}, online() {} });
  await until(() => other.online(9) === 2 && hub.online(9) === 2, "both nodes count both viewers");
  stopOther();
  await until(() => hub.online(9) === 1, "the leaving viewer is no longer counted");
  stop();
});
