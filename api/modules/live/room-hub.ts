/**
 * The live rooms of this process and their link to every other web node. Each node keeps the
 * open event streams of its own viewers; chat messages, state changes and presence travel as
 * NOTIFY on one channel (PGlite in-process, PostgreSQL across processes), and every node fans
 * them out to its own streams.
 *
 * Online count = open streams of a room across nodes. Each node counts its own and announces
 * the count (on every change, and every 15 s while it has viewers); the others keep the last
 * count per node and forget a node not heard from for 45 s, so a node that died stops counting
 * within three missed beats. NOTIFY instead of a presence table: no schema, no write per viewer,
 * and nothing left behind by a crash.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Logger } from "pino";
import type { Database } from "../../db/database";
import type { LiveState } from "../../db/schema";

export const LIVE_ROOM_CHANNEL = "live_room";
export const PRESENCE_BEAT_MS = 15_000;
export const PRESENCE_TTL_MS = 45_000;
/** Announcements of one room are coalesced over this long (a burst of joins is one NOTIFY). */
const ANNOUNCE_DELAY_MS = 50;
/** At most this many missed chat messages per room are replayed after a LISTEN loss. */
const REPLAY_LIMIT = 500;

/** A chat message as it travels between nodes (the sender's id decides `mine` per viewer). */
export interface RoomChat {
  id: number;
  userId: number;
  body: string;
  nickname: string;
  teacher: boolean;
  createdAt: string;
}

export type RoomEvent =
  | { type: "chat"; liveId: number; message: RoomChat }
  | { type: "state"; liveId: number; state: LiveState }
  | { type: "hide"; liveId: number; messageId: number }
  | { type: "pin"; liveId: number; pinned: string | null }
  | { type: "presence"; liveId: number; node: string; count: number; ask?: boolean };

export interface RoomListener {
  chat(message: RoomChat): void;
  state(state: LiveState): void;
  online(count: number): void;
  /** A moderator hid a message: viewers drop it. */
  hide?(messageId: number): void;
  /** The teacher pinned a message (null: unpinned). */
  pin?(pinned: string | null): void;
}

/**
 * NOTIFY reaches every listener of the database, whatever schema it works in; the schema
 * travels with each event so nodes of another deployment (or test) sharing the server ignore it.
 */
const namespaces = new WeakMap<Database, Promise<string>>();
function namespaceOf(database: Database): Promise<string> {
  let ns = namespaces.get(database);
  if (!ns) {
    ns = sql<{ ns: string }>`select current_schema() as ns`.execute(database.db).then((r) => r.rows[0]?.ns ?? "public");
    ns.catch(() => namespaces.delete(database));
    namespaces.set(database, ns);
  }
  return ns;
}

/** Tells every node (this one included) about a room. */
export async function publishRoomEvent(database: Database, event: RoomEvent): Promise<void> {
  const ns = await namespaceOf(database);
  await database.notify(LIVE_ROOM_CHANNEL, JSON.stringify({ ns, ...event }));
}

export class LiveRoomHub {
  readonly node = randomUUID();
  private readonly rooms = new Map<number, Set<RoomListener>>();
  /** Other nodes' counts per room: node → count and when it was heard (wall clock). */
  private readonly remote = new Map<number, Map<string, { count: number; seenAt: number }>>();
  private readonly lastOnline = new Map<number, number>();
  private readonly pendingAnnounce = new Map<number, { timer: NodeJS.Timeout; ask: boolean }>();
  /** The newest chat message id known per room with local viewers: where a replay starts. */
  private readonly lastChat = new Map<number, number>();
  private listening: Promise<void> | null = null;
  private ns: string | null = null;
  private beat: NodeJS.Timeout | null = null;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {
    // Notifications sent while the LISTEN connection was down are lost: read the stored chat
    // since the last message delivered and ask the other nodes for their counts again.
    database.onListenRestored(() => {
      this.replayMissed().catch((err: unknown) => this.logger.warn({ err }, "live chat replay failed"));
    });
  }

  /** Starts listening (once); safe to call again after a failure. */
  start(): Promise<void> {
    this.listening ??= (async () => {
      this.ns = await namespaceOf(this.database);
      await this.database.listen(LIVE_ROOM_CHANNEL, (payload) => this.dispatch(payload));
    })().catch((err: unknown) => {
      this.listening = null;
      throw err;
    });
    return this.listening;
  }

  async subscribe(liveId: number, listener: RoomListener): Promise<() => void> {
    await this.start();
    let set = this.rooms.get(liveId);
    const first = !set || set.size === 0;
    if (!set) {
      set = new Set();
      this.rooms.set(liveId, set);
    }
    set.add(listener);
    // Where a replay after a LISTEN loss would start (PGlite never loses its LISTEN).
    if (first && this.database.kind === "postgres" && !this.lastChat.has(liveId)) await this.noteNewestChat(liveId);
    // The first viewer of a room here asks the other nodes for their counts at once.
    this.announce(liveId, first);
    this.ensureBeat();
    this.refreshOnline(liveId);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      set.delete(listener);
      if (set.size === 0 && this.rooms.get(liveId) === set) {
        this.rooms.delete(liveId);
        this.lastChat.delete(liveId);
      }
      this.announce(liveId, false);
      this.refreshOnline(liveId);
    };
  }

  localCount(liveId: number): number {
    return this.rooms.get(liveId)?.size ?? 0;
  }

  /** Open streams of the room on every node that is still alive. */
  online(liveId: number): number {
    const now = this.clock();
    let total = this.localCount(liveId);
    for (const entry of this.remote.get(liveId)?.values() ?? []) {
      if (now - entry.seenAt <= PRESENCE_TTL_MS) total += entry.count;
    }
    return total;
  }

  private async noteNewestChat(liveId: number): Promise<void> {
    const row = await this.database.db
      .selectFrom("live_chat_messages")
      .select((eb) => eb.fn.max("id").as("id"))
      .where("live_id", "=", liveId)
      .executeTakeFirst();
    const id = Number(row?.id ?? 0);
    if (id > (this.lastChat.get(liveId) ?? -1)) this.lastChat.set(liveId, id);
  }

  private deliverChat(liveId: number, message: RoomChat): void {
    const rooms = this.rooms.get(liveId);
    if (rooms && message.id > (this.lastChat.get(liveId) ?? -1)) this.lastChat.set(liveId, message.id);
    // Streams drop ids they already sent, so a message both replayed and notified shows once.
    for (const l of [...(rooms ?? [])]) l.chat(message);
  }

  /** After a LISTEN loss: the chat each room missed, oldest first (bounded), and fresh counts. */
  private async replayMissed(): Promise<void> {
    for (const [liveId, since] of [...this.lastChat]) {
      if (!this.rooms.has(liveId)) continue;
      const rows = await this.database.db
        .selectFrom("live_chat_messages as m")
        .innerJoin("users as u", "u.id", "m.user_id")
        .innerJoin("live_sessions as s", "s.id", "m.live_id")
        .innerJoin("teachers as t", "t.id", "s.teacher_id")
        .select(["m.id", "m.user_id", "m.body", "m.created_at", "u.nickname", "t.user_id as teacher_user_id"])
        .where("m.live_id", "=", liveId)
        .where("m.id", ">", since)
        .where("m.hidden_at", "is", null)
        .orderBy("m.id", "asc")
        .limit(REPLAY_LIMIT)
        .execute();
      for (const r of rows) {
        this.deliverChat(liveId, {
          id: r.id,
          userId: r.user_id,
          body: r.body,
          nickname: r.nickname,
          teacher: r.teacher_user_id === r.user_id,
          createdAt: r.created_at.toISOString(),
        });
      }
      this.logger.info({ liveId, replayed: rows.length }, "live chat replayed after a LISTEN loss");
    }
    for (const liveId of this.rooms.keys()) this.announce(liveId, true);
  }

  private announce(liveId: number, ask: boolean): void {
    const pending = this.pendingAnnounce.get(liveId);
    if (pending) {
      pending.ask ||= ask;
      return;
    }
    const entry = {
      ask,
      timer: setTimeout(() => {
        this.pendingAnnounce.delete(liveId);
        const event: RoomEvent = {
          type: "presence",
          liveId,
          node: this.node,
          count: this.localCount(liveId),
          ...(entry.ask ? { ask: true } : {}),
        };
        publishRoomEvent(this.database, event).catch((err: unknown) =>
          this.logger.warn({ err, liveId }, "live presence announcement failed"),
        );
      }, ANNOUNCE_DELAY_MS),
    };
    entry.timer.unref();
    this.pendingAnnounce.set(liveId, entry);
  }

  /** Every 15 s while anything is known: announce our rooms, forget silent nodes. */
  private ensureBeat(): void {
    if (this.beat) return;
    this.beat = setInterval(() => this.onBeat(), PRESENCE_BEAT_MS);
    this.beat.unref();
  }

  private onBeat(): void {
    for (const liveId of this.rooms.keys()) this.announce(liveId, false);
    const now = this.clock();
    for (const [liveId, nodes] of this.remote) {
      for (const [node, entry] of nodes) if (now - entry.seenAt > PRESENCE_TTL_MS) nodes.delete(node);
      if (nodes.size === 0) this.remote.delete(liveId);
      this.refreshOnline(liveId);
    }
    if (this.rooms.size === 0 && this.remote.size === 0 && this.beat) {
      clearInterval(this.beat);
      this.beat = null;
    }
  }

  private refreshOnline(liveId: number): void {
    const count = this.online(liveId);
    if (this.lastOnline.get(liveId) === count) return;
    if (count === 0) this.lastOnline.delete(liveId);
    else this.lastOnline.set(liveId, count);
    for (const listener of this.rooms.get(liveId) ?? []) listener.online(count);
  }

  private dispatch(payload: string): void {
    let event: RoomEvent & { ns?: unknown };
    try {
      event = JSON.parse(payload) as RoomEvent & { ns?: unknown };
    } catch {
      return;
    }
    if (event.ns !== this.ns || !Number.isInteger(event.liveId)) return;
    const listeners = [...(this.rooms.get(event.liveId) ?? [])];
    switch (event.type) {
      case "chat":
        this.deliverChat(event.liveId, event.message);
        break;
      case "state":
        for (const l of listeners) l.state(event.state);
        break;
      case "hide":
        for (const l of listeners) l.hide?.(event.messageId);
        break;
      case "pin":
        for (const l of listeners) l.pin?.(event.pinned);
        break;
      case "presence": {
        if (event.node === this.node || typeof event.count !== "number") return;
        let nodes = this.remote.get(event.liveId);
        if (event.count > 0) {
          if (!nodes) {
            nodes = new Map();
            this.remote.set(event.liveId, nodes);
          }
          nodes.set(event.node, { count: event.count, seenAt: this.clock() });
          this.ensureBeat();
        } else if (nodes) {
          nodes.delete(event.node);
          if (nodes.size === 0) this.remote.delete(event.liveId);
        }
        if (event.ask && this.localCount(event.liveId) > 0) this.announce(event.liveId, false);
        this.refreshOnline(event.liveId);
        break;
      }
    }
  }
}
