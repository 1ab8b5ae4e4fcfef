/**
 * Live-session pieces of the staff pages (the operator's /admin/live and the teacher's /teach/live):
 * the ingest instructions with the "go live" check, moving a session, the pinned message and the
 * room's chat with hiding (operators) and timed mutes.
 */
import { useEffect, useRef, useState } from "react";
import { useRevalidator } from "react-router-dom";
import {
  type AdminLive,
  type ChatEntry,
  MUTE_LABELS,
  MUTE_MINUTES,
  chatLogSchema,
} from "../../../shared/contracts/admin-live";
import { chinaDateTime } from "../../../shared/china-time";
import { formatDateTime, formatTime } from "../../../shared/format";
import { browserApi } from "../../lib/api";
import { FormAlert } from "../form/FormAlert";
import { useMutation } from "../../lib/mutation";
import { Field } from "./staff-kit";
import { type StreamVerdict, VERDICT_TEXT, checkStream } from "./stream-check";

/** An instant as the value of a datetime-local input on the China wall clock ("2026-11-27T19:30"). */
const localInputOf = (iso: string) => chinaDateTime(iso).slice(0, 16);
/** A datetime-local value read as China time, as an ISO instant. */
export const isoOfLocalInput = (value: string) => new Date(`${value}:00+08:00`).toISOString();

export function IngestPanel({ live }: { live: AdminLive }) {
  const [shown, setShown] = useState(false);
  const [checking, setChecking] = useState(false);
  const [verdict, setVerdict] = useState<StreamVerdict | null>(null);
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  return (
    <section className="card staff-panel" aria-labelledby="ingest-title">
      <h2 id="ingest-title">推流设置</h2>
      <ol className="staff-steps">
        <li>
          在推流软件（如 OBS）中选择“自定义”服务器，服务器填写 <code className="staff-code">{live.ingest.server}</code>
        </li>
        <li>
          串流密钥填写{" "}
          <code className="staff-code" data-testid="stream-key">
            {shown ? live.ingest.streamKey : "••••••••••••"}
          </code>{" "}
          <button type="button" className="text-link" onClick={() => setShown((v) => !v)}>
            {shown ? "隐藏" : "显示"}
          </button>
          。密钥等于开播权限，不要发给学员。
        </li>
        <li>开始推流后，点下面的“检查推流”，确认学员能看到画面。</li>
      </ol>
      {live.ingest.demo ? (
        <p className="staff-message">本站使用演示推流器：每个密钥都会循环播放一段示例视频，检查会显示推流正常。</p>
      ) : null}
      <p>
        学员观看地址：<code className="staff-code">{`${origin}${live.ingest.playbackUrl}`}</code>
      </p>
      <button
        type="button"
        className="button button--small"
        disabled={checking}
        onClick={() => {
          setChecking(true);
          setVerdict(null);
          void checkStream(live.ingest.playbackUrl)
            .then(setVerdict)
            .finally(() => setChecking(false));
        }}
      >
        {checking ? "正在检查推流…" : "检查推流"}
      </button>
      {verdict ? (
        <p
          className={`staff-message${verdict === "arriving" ? "" : " staff-message--error"}`}
          role="status"
          data-testid="stream-verdict"
        >
          {VERDICT_TEXT[verdict]}
        </p>
      ) : null}
    </section>
  );
}

export function MoveForm({ live, endpoint, method }: { live: AdminLive; endpoint: string; method: "PUT" | "PATCH" }) {
  const [startsAt, setStartsAt] = useState(localInputOf(live.startsAt));
  const [endsAt, setEndsAt] = useState(localInputOf(live.endsAt));
  const action = useMutation();
  const revalidator = useRevalidator();
  if (live.state !== "scheduled") {
    return <p className="staff-message">直播开始后不能再改时间。</p>;
  }
  return (
    <form
      className="staff-form"
      aria-label="调整时间"
      onSubmit={(event) => {
        event.preventDefault();
        void action
          .send(endpoint, {
            method,
            body: { startsAt: isoOfLocalInput(startsAt), endsAt: isoOfLocalInput(endsAt) },
            done: `时间已调整，已通知 ${live.audience} 位预约或报名的学员`,
          })
          .then(() => revalidator.revalidate());
      }}
    >
      <Field label="开始时间（北京时间）">
        {(id) => (
          <input
            id={id}
            type="datetime-local"
            className="form-field__control"
            value={startsAt}
            onChange={(e) => setStartsAt(e.target.value)}
            required
          />
        )}
      </Field>
      <Field label="结束时间（北京时间）">
        {(id) => (
          <input
            id={id}
            type="datetime-local"
            className="form-field__control"
            value={endsAt}
            onChange={(e) => setEndsAt(e.target.value)}
            required
          />
        )}
      </Field>
      <div className="staff-form__actions">
        <button type="submit" className="button button--primary button--small" disabled={action.busy}>
          调整时间
        </button>
        <small>会通知 {live.audience} 位预约或报名的学员</small>
      </div>
      <FormAlert look="staff" problem={action.problem} done={action.done} />
    </form>
  );
}

export function PinForm({ live, endpoint }: { live: AdminLive; endpoint: string }) {
  const [text, setText] = useState(live.pinnedMessage ?? "");
  const action = useMutation();
  const revalidator = useRevalidator();
  const save = (message: string | null) =>
    void action
      .send(endpoint, { method: "PUT", body: { message }, done: message ? "已置顶" : "已取消置顶" })
      .then(() => revalidator.revalidate());
  return (
    <form
      className="staff-form"
      aria-label="置顶消息"
      onSubmit={(event) => {
        event.preventDefault();
        save(text.trim() || null);
      }}
    >
      <Field label="置顶消息" hint="学员在聊天区顶部看到，最多 200 字" wide>
        {(id) => (
          <input
            id={id}
            className="form-field__control"
            value={text}
            maxLength={200}
            onChange={(e) => setText(e.target.value)}
          />
        )}
      </Field>
      <div className="staff-form__actions">
        <button type="submit" className="button button--small" disabled={action.busy}>
          置顶
        </button>
        {live.pinnedMessage ? (
          <button type="button" className="button button--small" disabled={action.busy} onClick={() => save(null)}>
            取消置顶
          </button>
        ) : null}
      </div>
      <FormAlert look="staff" problem={action.problem} done={action.done} />
    </form>
  );
}

/** The room's chat for moderators, refreshed every 5 s while the page is open. */
export function ChatModeration({ base, canHide }: { base: string; canHide: boolean }) {
  const [messages, setMessages] = useState<ChatEntry[] | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [minutes, setMinutes] = useState<number>(MUTE_MINUTES[1]);
  const action = useMutation();
  const tick = useRef(0);
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    const load = () =>
      browserApi(`${base}/chat`, { schema: chatLogSchema, signal: controller.signal })
        .then((log) => {
          setMessages(log.messages);
          setLoadError(false);
        })
        .catch(() => {
          if (!controller.signal.aborted) setLoadError(true);
        });
    void load();
    const timer = setInterval(() => {
      tick.current += 1;
      void load();
    }, 5000);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [base, version]);
  const refresh = () => setVersion((v) => v + 1);
  return (
    <section className="card staff-panel" aria-labelledby="chat-mod-title">
      <h2 id="chat-mod-title">聊天管理</h2>
      <Field label="禁言时长">
        {(id) => (
          <select
            id={id}
            className="form-field__control"
            value={minutes}
            onChange={(e) => setMinutes(Number(e.target.value))}
          >
            {MUTE_MINUTES.map((m) => (
              <option key={m} value={m}>
                {MUTE_LABELS[m]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <FormAlert look="staff" problem={action.problem} done={action.done} />
      {loadError ? (
        <p className="staff-message staff-message--error" role="alert">
          聊天记录加载失败{" "}
          <button type="button" className="text-link" onClick={refresh}>
            重试
          </button>
        </p>
      ) : messages === null ? (
        <p className="staff-message" role="status">
          正在加载聊天记录…
        </p>
      ) : messages.length === 0 ? (
        <p className="staff-message">还没有人发言。</p>
      ) : (
        <table className="staff-table">
          <thead>
            <tr>
              <th scope="col">时间</th>
              <th scope="col">学员</th>
              <th scope="col">内容</th>
              <th scope="col">操作</th>
            </tr>
          </thead>
          <tbody>
            {messages.map((m) => (
              <tr key={m.id} data-testid="chat-row">
                <td>
                  <time dateTime={m.createdAt}>{formatTime(m.createdAt)}</time>
                </td>
                <td>
                  {m.nickname}
                  {m.mutedUntil ? (
                    <small className="staff-badge staff-badge--on"> 禁言至 {formatDateTime(m.mutedUntil)}</small>
                  ) : null}
                </td>
                <td>{m.hidden ? <s title="已隐藏">{m.body}</s> : m.body}</td>
                <td>
                  {canHide && !m.hidden ? (
                    <button
                      type="button"
                      className="text-link"
                      disabled={action.busy}
                      onClick={() =>
                        void action.send(`${base}/chat/${m.id}/hide`, { body: {}, done: "已隐藏" }).then(refresh)
                      }
                    >
                      隐藏
                    </button>
                  ) : null}{" "}
                  {m.mutedUntil ? (
                    <button
                      type="button"
                      className="text-link"
                      disabled={action.busy}
                      onClick={() =>
                        void action
                          .send(`${base}/mutes/${m.userId}`, { method: "DELETE", done: "已解除禁言" })
                          .then(refresh)
                      }
                    >
                      解除禁言
                    </button>
                  ) : (
                    <button
                      type="button"
                      className="text-link"
                      disabled={action.busy}
                      onClick={() =>
                        void action
                          .send(`${base}/mutes`, { body: { userId: m.userId, minutes }, done: `已禁言 ${m.nickname}` })
                          .then(refresh)
                      }
                    >
                      禁言
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
