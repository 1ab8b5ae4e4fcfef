/**
 * The room's chat: messages as plain text (never markup), following the newest unless the
 * reader scrolled up (then a button says how many are new), and a one-line input that sends
 * on Enter. Rules: 1–200 characters, at most 10 messages in 10 seconds.
 */
import { type FormEvent, type ReactNode, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { CHAT_MAX_CHARS, type ChatMessage } from "../../../shared/contracts/live";
import { browserApi } from "../../lib/api";
import { problemText } from "./live-errors";
import type { RoomConnection } from "./use-room-events";
import { formatTime } from "../../../shared/format";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const liveContract = () => import("../../../shared/contracts/live");

/** Near enough to the bottom to keep following new messages. */
const STICK_PX = 48;

const connectionText: Partial<Record<RoomConnection, string>> = {
  connecting: "正在进入聊天室…",
  reconnecting: "连接中断，正在重新连接…",
  failed: "聊天室连接失败",
  closed: "直播间已关闭，聊天已结束",
};

export function RoomChat({
  liveId,
  messages,
  connection,
  onRetry,
  onSent,
  canSend,
  disabledReason,
  locked,
  pinned = null,
}: {
  liveId: number;
  messages: ChatMessage[];
  connection: RoomConnection;
  onRetry: () => void;
  onSent: (message: ChatMessage) => void;
  canSend: boolean;
  /** Why the input is off (shown as its placeholder). */
  disabledReason: string;
  /** Instead of the list: why this viewer cannot see the chat (and what to do). */
  locked?: ReactNode;
  /** The teacher's pinned message, above the messages. */
  pinned?: string | null;
}) {
  const list = useRef<HTMLOListElement>(null);
  const stick = useRef(true);
  const seen = useRef(0);
  const [unseen, setUnseen] = useState(0);
  const [draft, setDraft] = useState("");
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = useId();
  const counterId = useId();

  const length = [...draft.trim()].length;
  const tooLong = length > CHAT_MAX_CHARS;

  // Follow the newest message unless the reader has scrolled up to read.
  useLayoutEffect(() => {
    const element = list.current;
    if (!element) return;
    const added = messages.length - seen.current;
    seen.current = messages.length;
    if (stick.current) element.scrollTop = element.scrollHeight;
    else if (added > 0) setUnseen((n) => n + added);
  }, [messages]);

  useEffect(() => {
    if (!problem) return;
    const timer = setTimeout(() => setProblem(null), 6000);
    return () => clearTimeout(timer);
  }, [problem]);

  const toBottom = () => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
    stick.current = true;
    setUnseen(0);
  };

  const send = (event: FormEvent) => {
    event.preventDefault();
    const body = draft.trim();
    if (!canSend || sending || !body) return;
    if (tooLong) {
      setProblem(`每条消息最多 ${CHAT_MAX_CHARS} 个字`);
      return;
    }
    setSending(true);
    browserApi(`/api/live/${liveId}/messages`, {
      method: "POST",
      body: { body },
      schema: liveContract().then((m) => m.chatMessageSchema),
    })
      .then((message) => {
        setDraft("");
        setProblem(null);
        stick.current = true;
        onSent(message);
      })
      .catch((err: unknown) => setProblem(problemText(err)))
      .finally(() => setSending(false));
  };

  const status = connectionText[connection];
  return (
    <section className="card room-chat" aria-labelledby={`${inputId}-title`}>
      <h2 className="room-chat__title" id={`${inputId}-title`}>
        互动聊天
      </h2>
      {locked ? (
        <div className="room-chat__locked">{locked}</div>
      ) : (
        <>
          {status ? (
            <p className={`room-chat__status room-chat__status--${connection}`} role="status">
              {status}
              {connection === "failed" ? (
                <button type="button" className="text-link room-chat__retry" onClick={onRetry}>
                  重试
                </button>
              ) : null}
            </p>
          ) : null}
          {pinned ? (
            <p className="room-chat__pinned" data-testid="chat-pinned">
              <span className="chat-message__tag">置顶</span> {pinned}
            </p>
          ) : null}
          <ol
            ref={list}
            className="room-chat__list"
            aria-label="聊天消息"
            aria-live="polite"
            onScroll={(event) => {
              const el = event.currentTarget;
              stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
              if (stick.current) setUnseen(0);
            }}
          >
            {messages.length === 0 && connection === "open" ? (
              <li className="room-chat__empty">还没有人发言，来打个招呼吧。</li>
            ) : null}
            {messages.map((m) => (
              <li
                key={m.id}
                className={`chat-message${m.mine ? " is-mine" : ""}${m.teacher ? " is-teacher" : ""}`}
                data-testid="chat-message"
              >
                <span className="chat-message__meta">
                  <span className="chat-message__name">{m.mine ? `${m.nickname}（我）` : m.nickname}</span>
                  {m.teacher ? <span className="chat-message__tag">老师</span> : null}
                  <time dateTime={m.createdAt}>{formatTime(m.createdAt)}</time>
                </span>
                <span className="chat-message__body">{m.body}</span>
              </li>
            ))}
          </ol>
          {unseen > 0 ? (
            <button type="button" className="room-chat__unseen" onClick={toBottom}>
              有 {unseen} 条新消息 ↓
            </button>
          ) : null}
        </>
      )}
      {locked ? null : (
        <>
          <form className="room-chat__form" onSubmit={send}>
            <label className="visually-hidden" htmlFor={inputId}>
              发言
            </label>
            <input
              id={inputId}
              className="room-chat__input"
              type="text"
              autoComplete="off"
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              disabled={!canSend}
              placeholder={canSend ? "说点什么…（Enter 发送）" : disabledReason}
              aria-describedby={counterId}
              aria-invalid={tooLong || undefined}
            />
            <button
              type="submit"
              className="button button--primary button--small"
              disabled={!canSend || sending || length === 0}
            >
              发送
            </button>
            <span id={counterId} className={`room-chat__counter${tooLong ? " is-over" : ""}`} aria-live="polite">
              {length}/{CHAT_MAX_CHARS}
            </span>
          </form>
          {problem ? (
            <p className="room-chat__problem" role="alert">
              {problem}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
