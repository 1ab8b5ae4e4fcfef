/**
 * The room's event stream in the browser: chat (with history on connect), online count and state
 * changes. EventSource reconnects by itself and resumes after the last message it saw
 * (Last-Event-ID), also when a stopping server asks it to (`reconnect`); a refused stream
 * (signed out, no access) is reported, not retried forever.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { LiveStateKey } from "../../../shared/contracts/catalogue";
import type { ChatMessage } from "../../../shared/contracts/live";

export type RoomConnection = "off" | "connecting" | "open" | "reconnecting" | "failed" | "closed";

/** The newest messages kept on the page. */
const KEEP_MESSAGES = 300;

export function mergeMessages(list: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return list;
  const byId = new Map(list.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.id - b.id).slice(-KEEP_MESSAGES);
}

function parse(data: unknown): unknown {
  try {
    return JSON.parse(String(data));
  } catch {
    return null;
  }
}

export function useRoomEvents(
  liveId: number,
  enabled: boolean,
  handlers: {
    onState: (state: LiveStateKey, serverNow: string) => void;
    onOnline: (online: number) => void;
  },
) {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [connection, setConnection] = useState<RoomConnection>("off");
  const [pinned, setPinned] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    if (!enabled) {
      setConnection("off");
      return;
    }
    setConnection("connecting");
    let source: EventSource | null = null;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const open = (
      {
        chatMessageSchema,
        roomOnlineEventSchema,
        roomStateEventSchema,
      }: typeof import("../../../shared/contracts/live"),
      { roomHideEventSchema, roomPinEventSchema }: typeof import("../../../shared/contracts/admin-live"),
    ) => {
      const source = new EventSource(`/api/live/${liveId}/events`);
      // History arrives as a burst of events: collect them briefly instead of one render each.
      let pending: ChatMessage[] = [];
      const flush = () => {
        timer = null;
        const batch = pending;
        pending = [];
        setMessages((prev) => mergeMessages(prev, batch));
      };
      source.onopen = () => setConnection("open");
      source.addEventListener("chat", (event) => {
        const message = chatMessageSchema.safeParse(parse(event.data));
        if (!message.success) return;
        pending.push(message.data);
        timer ??= setTimeout(flush, 30);
      });
      source.addEventListener("state", (event) => {
        const state = roomStateEventSchema.safeParse(parse(event.data));
        if (state.success) latest.current.onState(state.data.state, state.data.serverNow);
      });
      // A moderator hid a message: it goes from every page at once.
      source.addEventListener("hide", (event) => {
        const hidden = roomHideEventSchema.safeParse(parse(event.data));
        if (!hidden.success) return;
        pending = pending.filter((m) => m.id !== hidden.data.id);
        setMessages((prev) => prev.filter((m) => m.id !== hidden.data.id));
      });
      source.addEventListener("pin", (event) => {
        const pin = roomPinEventSchema.safeParse(parse(event.data));
        if (pin.success) setPinned(pin.data.pinned);
      });
      source.addEventListener("online", (event) => {
        const online = roomOnlineEventSchema.safeParse(parse(event.data));
        if (online.success) latest.current.onOnline(online.data.online);
      });
      // The server is stopping: EventSource comes back by itself (to another node, after the
      // event's `retry`) with the last message id, and the server replays what came after it.
      source.addEventListener("reconnect", () => setConnection("reconnecting"));
      source.addEventListener("closed", () => {
        source.close();
        setConnection("closed");
      });
      source.onerror = () => {
        setConnection(source.readyState === EventSource.CLOSED ? "failed" : "reconnecting");
      };
      return source;
    };
    // The stream opens once the room's contracts are here (they load with the page's first
    // stream, not with the page: decision 030).
    void Promise.all([import("../../../shared/contracts/live"), import("../../../shared/contracts/admin-live")]).then(
      ([live, moderation]) => {
        if (!cancelled) source = open(live, moderation);
      },
      () => {
        if (!cancelled) setConnection("failed");
      },
    );
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
      source?.close();
    };
  }, [liveId, enabled, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  /** A message this page sent: shown at once, the stream's copy is merged by id. */
  const addOwn = useCallback((message: ChatMessage) => setMessages((prev) => mergeMessages(prev, [message])), []);
  return { messages, connection, retry, addOwn, pinned };
}
