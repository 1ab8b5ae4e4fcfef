/**
 * One viewer's stream of a live room as Server-Sent Events: the chat history (or what came after
 * the last message they got), then new messages, the online count and state changes, until the
 * room closes an hour after its end.
 */
import type { Request, Response } from "express";
import { CHAT_HISTORY, type ChatMessage } from "../../../shared/contracts/live";
import type { ApiContext } from "../../context";
import type { LiveState, User } from "../../db/schema";
import { openGuardedStream } from "../../sse";
import type { LiveRoomHub, RoomChat } from "./room-hub";
import type { SessionRow } from "./sessions";
import { ROOM_CLOSE_AFTER_MS, effectiveState, isOver, nextChange } from "./states";

/** Messages a resuming stream catches up on at most (older ones are in the history anyway). */
const RESUME_LIMIT = 200;

export async function streamRoom(
  ctx: ApiContext,
  hub: LiveRoomHub,
  req: Request,
  res: Response,
  session: SessionRow,
  user: User,
  resumeAfter: number | null,
) {
  let ready = false;
  let lastState: LiveState | null = null;
  let pendingState: LiveState | null = null;
  let lastOnline = -1;
  const buffered: RoomChat[] = [];
  const sent = new Set<number>();
  const timers: { state?: NodeJS.Timeout; close?: NodeJS.Timeout } = {};
  // On shutdown: the browser comes back (to another node) with the id of the last chat
  // message it got, and the history after that id fills the gap (chatHistory below).
  const stream = openGuardedStream(req, res, ctx.eventStreams);
  stream.onEnd(() => {
    clearTimeout(timers.state);
    clearTimeout(timers.close);
  });
  const write = stream.write;
  const sendChat = (message: RoomChat) => {
    if (sent.has(message.id)) return;
    sent.add(message.id);
    write(`id: ${message.id}\nevent: chat\ndata: ${JSON.stringify(toViewerMessage(message, user.id))}\n\n`);
  };
  const sendState = (state: LiveState) => {
    if (state === lastState) return;
    lastState = state;
    write(`event: state\ndata: ${JSON.stringify({ state, serverNow: ctx.now().toISOString() })}\n\n`);
  };
  const sendOnline = (count: number) => {
    if (count === lastOnline) return;
    lastOnline = count;
    write(`event: online\ndata: ${JSON.stringify({ online: count })}\n\n`);
  };
  /** Follows the clock: the next start or end changes the state without waiting for the job. */
  const scheduleClock = () => {
    clearTimeout(timers.state);
    const now = ctx.now();
    const next = nextChange({ ...session, state: lastState ?? session.state }, now);
    if (!next) return;
    timers.state = setTimeout(
      () => {
        sendState(effectiveState({ ...session, state: lastState ?? session.state }, ctx.now()));
        scheduleClock();
      },
      Math.min(next.getTime() - now.getTime() + 50, 2_147_000_000),
    );
  };
  const finish = () => stream.end(`event: closed\ndata: {}\n\n`);
  if (stream.closed) return;

  // Listen before reading the history, so nothing said in between is missed (ids drop repeats).
  const unsubscribe = await hub.subscribe(session.id, {
    chat: (message) => (ready ? sendChat(message) : buffered.push(message)),
    state: (state) => {
      if (!ready) {
        pendingState = state;
        return;
      }
      sendState(state);
      if (state === "cancelled") finish();
      else scheduleClock();
    },
    // Counts before the history is out are sent with it (the latest only).
    online: (count) => (ready ? sendOnline(count) : undefined),
    hide: (messageId) => {
      sent.add(messageId); // never sent afterwards (a replay after a LISTEN loss included)
      write(`event: hide\ndata: ${JSON.stringify({ id: messageId })}\n\n`);
    },
    pin: (pinned) => write(`event: pin\ndata: ${JSON.stringify({ pinned })}\n\n`),
  });
  stream.onEnd(unsubscribe);
  if (stream.closed) return;

  const history = await chatHistory(ctx, session, resumeAfter);
  if (session.pinned_message) write(`event: pin\ndata: ${JSON.stringify({ pinned: session.pinned_message })}\n\n`);
  for (const message of history) sendChat(message);
  ready = true;
  for (const message of buffered.splice(0)) sendChat(message);
  sendState(pendingState ?? effectiveState(session, ctx.now()));
  sendOnline(hub.online(session.id));
  if (stream.closed) return;

  scheduleClock();
  // A room is closed an hour after its end: its streams end and the page stops listening.
  const closeAt = session.ends_at.getTime() + ROOM_CLOSE_AFTER_MS - ctx.now().getTime();
  if (lastState === "cancelled" || (lastState !== null && isOver(lastState) && closeAt <= 0)) finish();
  else if (closeAt < 2_147_000_000) timers.close = setTimeout(finish, Math.max(closeAt, 0));
}

async function chatHistory(ctx: ApiContext, session: SessionRow, resumeAfter: number | null): Promise<RoomChat[]> {
  let query = ctx.database.db
    .selectFrom("live_chat_messages as m")
    .innerJoin("users as u", "u.id", "m.user_id")
    .select(["m.id", "m.user_id", "m.body", "m.created_at", "u.nickname"])
    .where("m.live_id", "=", session.id)
    .where("m.hidden_at", "is", null);
  query =
    resumeAfter === null
      ? query.orderBy("m.id", "desc").limit(CHAT_HISTORY)
      : query.where("m.id", ">", resumeAfter).orderBy("m.id", "asc").limit(RESUME_LIMIT);
  const rows = await query.execute();
  if (resumeAfter === null) rows.reverse();
  return rows.map((r) => ({
    id: r.id,
    userId: r.user_id,
    body: r.body,
    nickname: r.nickname,
    teacher: session.teacher_user_id === r.user_id,
    createdAt: r.created_at.toISOString(),
  }));
}

export function toViewerMessage(message: RoomChat, viewerId: number): ChatMessage {
  return {
    id: message.id,
    body: message.body,
    nickname: message.nickname,
    teacher: message.teacher,
    mine: message.userId === viewerId,
    createdAt: message.createdAt,
  };
}
