/**
 * 扫码登录: our own QR ticket, followed over Server-Sent Events (pending → scanned → confirmed,
 * or cancelled / expired) and claimed once confirmed. With WeChat configured, the panel is a
 * link to WeChat's own login page instead; no third-party script is loaded either way.
 */
import { useEffect, useRef, useState } from "react";
import {
  type LoginResult,
  loginResultSchema,
  type QrTicketCreated,
  qrTicketCreatedSchema,
  wechatConfigSchema,
} from "../../../shared/contracts/auth";
import { browserApi } from "../../lib/api";
import { type Problem, describeProblem } from "../../lib/problem";
import { afterLoginPath } from "./login-client";

type QrState = "loading" | "pending" | "scanned" | "confirmed" | "cancelled" | "expired" | "used" | "failed";
const STREAM_STATES = new Set<string>(["pending", "scanned", "confirmed", "cancelled", "expired", "used"]);
/** The API's names for the same states. */
const ALIASES: Record<string, QrState> = { consumed: "used" };
/** States after which the ticket is no use: the refresh button shows. */
const ENDED = new Set<QrState>(["cancelled", "expired", "used", "failed"]);

/** An event's data is the state, plain or as JSON `{"status": …}`. */
function stateOf(data: string): QrState | null {
  let value = data.trim();
  if (value.startsWith("{")) {
    try {
      const parsed = JSON.parse(value) as { state?: unknown; status?: unknown };
      value = String(parsed.state ?? parsed.status ?? "");
    } catch {
      return null;
    }
  }
  const state = ALIASES[value] ?? value;
  return STREAM_STATES.has(state) ? (state as QrState) : null;
}

const endedText: Record<string, string> = {
  expired: "二维码已过期",
  cancelled: "已在手机上取消登录",
  used: "二维码已使用",
};

export function QrPanel({ onLogin }: { onLogin: (result: LoginResult) => void }) {
  const [mode, setMode] = useState<"checking" | "own" | "wechat">("checking");
  const [generation, setGeneration] = useState(0);
  const [ticket, setTicket] = useState<QrTicketCreated | null>(null);
  const [state, setState] = useState<QrState>("loading");
  const [problem, setProblem] = useState<Problem | null>(null);
  const onLoginRef = useRef(onLogin);
  const refreshRef = useRef<HTMLButtonElement | null>(null);
  const refreshFocused = useRef(false);

  useEffect(() => {
    onLoginRef.current = onLogin;
  });

  useEffect(() => {
    const controller = new AbortController();
    browserApi("/api/auth/wechat/config", { signal: controller.signal, schema: wechatConfigSchema })
      .then((config) => setMode(config.enabled ? "wechat" : "own"))
      .catch(() => {
        // No WeChat login configured (or the call failed): our own QR code works everywhere.
        if (!controller.signal.aborted) setMode("own");
      });
    return () => controller.abort();
  }, []);

  useEffect(() => {
    if (mode !== "own") return;
    const controller = new AbortController();
    setTicket(null);
    setState("loading");
    setProblem(null);
    browserApi("/api/auth/qr", { method: "POST", body: {}, signal: controller.signal, schema: qrTicketCreatedSchema })
      .then((created) => {
        setTicket(created);
        setState("pending");
      })
      .catch((err) => {
        if (controller.signal.aborted) return;
        setProblem(describeProblem(err));
        setState("failed");
      });
    return () => controller.abort();
  }, [mode, generation]);

  useEffect(() => {
    if (!ticket) return;
    const id = encodeURIComponent(ticket.ticket);
    const source = new EventSource(`/api/auth/qr/${id}/events`);
    let finished = false;
    let expiry: ReturnType<typeof setTimeout> | undefined;
    const end = (next: QrState, why: Problem | null = null) => {
      finished = true;
      source.close();
      clearTimeout(expiry);
      setState(next);
      setProblem(why);
    };
    const claim = () => {
      finished = true;
      source.close();
      clearTimeout(expiry);
      setState("confirmed");
      browserApi(`/api/auth/qr/${id}/claim`, { method: "POST", body: {}, schema: loginResultSchema })
        .then((result) => onLoginRef.current(result))
        .catch((err) => {
          const found = describeProblem(err);
          setState(found.statusCode === 409 || found.statusCode === 410 ? "used" : "failed");
          setProblem(found);
        });
    };
    const onState = (event: MessageEvent<string>) => {
      if (finished) return;
      const next = stateOf(event.data);
      if (!next) return;
      if (next === "confirmed") claim();
      else if (ENDED.has(next)) end(next);
      else setState(next);
    };
    source.addEventListener("message", onState);
    source.addEventListener("state", onState);
    source.onerror = () => {
      // EventSource retries by itself; only a stream it gave up on is an error here.
      if (!finished && source.readyState === EventSource.CLOSED)
        end("failed", { message: "连接已断开", fields: {}, retryAfter: null, code: null, statusCode: null });
    };
    // The server says "expired" itself; this is the fallback when the stream is quiet.
    const ttl = Date.parse(ticket.expiresAt) - Date.now();
    if (ttl > 0)
      expiry = setTimeout(() => {
        if (!finished) end("expired");
      }, ttl + 2000);
    return () => {
      finished = true;
      source.close();
      clearTimeout(expiry);
    };
  }, [ticket]);

  const ended = ENDED.has(state);
  // The refresh button takes focus only when the learner is not typing somewhere else.
  useEffect(() => {
    if (!ended) {
      refreshFocused.current = false;
      return;
    }
    const active = document.activeElement;
    if (!refreshFocused.current && (!active || active === document.body || active.closest('[role="dialog"]'))) {
      refreshFocused.current = true;
      refreshRef.current?.focus({ preventScroll: true });
    }
  }, [ended]);

  if (mode === "wechat") {
    const redirect = afterLoginPath(window.location);
    return (
      <div className="login-qr login-qr--wechat">
        <p className="login-lead">使用微信扫一扫登录，首次登录需绑定手机号。</p>
        <a
          className="button button--primary login-submit"
          href={`/api/auth/wechat/start?redirect=${encodeURIComponent(redirect)}`}
        >
          打开微信扫码登录
        </a>
      </div>
    );
  }

  const status =
    state === "loading"
      ? "二维码生成中…"
      : state === "pending"
        ? "请使用已登录的手机扫描二维码"
        : state === "scanned"
          ? "已扫码，请在手机上确认登录"
          : state === "confirmed"
            ? "已确认，正在登录…"
            : state === "failed"
              ? (problem?.message ?? "二维码加载失败")
              : (endedText[state] ?? "二维码已失效");

  return (
    <div className="login-qr" data-state={state}>
      <div className="login-qr__frame">
        {ticket ? (
          <div
            className="login-qr__code"
            role="img"
            aria-label="扫码登录二维码"
            dangerouslySetInnerHTML={{ __html: ticket.qrSvg }}
          />
        ) : (
          <div className="login-qr__code login-qr__code--empty" aria-hidden="true" />
        )}
        {state !== "pending" && state !== "loading" ? (
          <div className="login-qr__mask">
            {ended ? (
              <button
                ref={refreshRef}
                type="button"
                className="button button--primary button--small"
                onClick={() => setGeneration((g) => g + 1)}
              >
                刷新二维码
              </button>
            ) : (
              <span className="login-qr__mark" aria-hidden="true">
                {state === "confirmed" ? "登录中…" : "已扫码"}
              </span>
            )}
          </div>
        ) : null}
      </div>
      <p className="login-qr__status" role="status" aria-live="polite">
        {status}
      </p>
      <p className="login-qr__help">在手机上登录后扫码并确认，这台电脑即可登录。</p>
    </div>
  );
}
