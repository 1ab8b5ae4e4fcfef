/**
 * 确认扫码登录 (`/m/qr/<ticket>`), opened on a phone that scanned a computer's QR code. It shows
 * which computer asks to log in (browser, system, coarse IP, time) before anything happens, so a
 * QR code relayed by someone else (QRLJacking) can be recognised and refused.
 */
import { useRef, useState } from "react";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { z } from "zod";
import { AjaxError } from "../../../shared/ajax";
import { qrStatusSchema, type QrTicketView } from "../../../shared/contracts/auth";
import { AppError, NOT_FOUND_MESSAGE } from "../../../shared/errors";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import { browserApi } from "../../lib/api";
import type { PageLoaderArgs } from "../../routing/nav-context";
import "./qr-confirm.css";
import { formatMonthDayTime } from "../../../shared/format";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const authContract = () => import("../../../shared/contracts/auth");

type TicketStatus = z.infer<typeof qrStatusSchema>;

const conflictSchema = z.object({
  error: z.object({ message: z.string(), details: z.object({ status: qrStatusSchema }).optional() }),
});

interface LoaderData {
  ticket: string;
  /** null: the phone is not logged in. */
  view: QrTicketView | null;
}

export async function loader({ env, params, signal }: PageLoaderArgs): Promise<LoaderData> {
  const ticket = params.ticket ?? "";
  try {
    const view = await env.api(`/api/auth/qr/${encodeURIComponent(ticket)}`, {
      signal,
      schema: authContract().then((m) => m.qrTicketViewSchema),
    });
    return { ticket, view };
  } catch (err) {
    if (err instanceof AjaxError && err.statusCode === 401) return { ticket, view: null };
    if (err instanceof AjaxError && err.statusCode === 404) throw new AppError(404, NOT_FOUND_MESSAGE);
    throw err;
  }
}

const ENDED: Record<Exclude<TicketStatus, "pending" | "scanned">, { glyph: string; title: string; text: string }> = {
  confirmed: {
    glyph: "成",
    title: "已确认登录",
    text: "电脑上会自动完成登录，请回到电脑继续。",
  },
  cancelled: {
    glyph: "止",
    title: "已取消本次登录",
    text: "电脑上不会登录你的账号。如需登录，请在电脑上刷新二维码后重新扫码。",
  },
  consumed: {
    glyph: "用",
    title: "这个二维码已经用过了",
    text: "每个二维码只能登录一次。如需再次登录，请在电脑上刷新二维码后重新扫码。",
  },
  expired: {
    glyph: "逾",
    title: "二维码已过期",
    text: "二维码 2 分钟内有效。请在电脑上点击「刷新二维码」，再用手机重新扫码。",
  },
};

function LoginFirst({ ticket }: { ticket: string }) {
  const back = `/m/qr/${ticket}`;
  return (
    <EmptyState
      glyph="登"
      title="请先在手机上登录"
      action={
        <Link className="button button--primary qr-confirm__wide" to={`/?login=1&redirect=${encodeURIComponent(back)}`}>
          登录后继续
        </Link>
      }
    >
      <p>扫码登录需要手机上已登录的账号来确认。登录后会回到这一页。</p>
    </EmptyState>
  );
}

function Requester({ view }: { view: QrTicketView }) {
  return (
    <dl className="card qr-confirm__requester">
      <div>
        <dt>登录设备</dt>
        <dd>{view.requester.device}</dd>
      </div>
      <div>
        <dt>IP 地址</dt>
        <dd>{view.requester.ip}</dd>
      </div>
      <div>
        <dt>请求时间</dt>
        <dd>
          <time dateTime={view.requester.createdAt}>{formatMonthDayTime(view.requester.createdAt)}</time>
        </dd>
      </div>
    </dl>
  );
}

function Confirm({ ticket, view }: { ticket: string; view: QrTicketView }) {
  const [status, setStatus] = useState<TicketStatus>(view.status);
  const [busy, setBusy] = useState<"confirm" | "cancel" | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [loggedOut, setLoggedOut] = useState(false);
  const resultRef = useRef<HTMLDivElement | null>(null);

  const act = async (action: "confirm" | "cancel") => {
    setBusy(action);
    setProblem(null);
    try {
      const result = await browserApi(`/api/auth/qr/${encodeURIComponent(ticket)}/${action}`, {
        method: "POST",
        body: {},
        schema: authContract().then((m) => m.qrDecisionSchema),
      });
      setStatus(result.status);
    } catch (err) {
      if (err instanceof AjaxError && err.statusCode === 401) setLoggedOut(true);
      else {
        const conflict = err instanceof AjaxError ? conflictSchema.safeParse(err.body) : null;
        const next = conflict?.success ? conflict.data.error.details?.status : undefined;
        if (next && next !== "pending" && next !== "scanned") setStatus(next);
        else setProblem(conflict?.success ? conflict.data.error.message : "网络连接失败，请检查网络后重试");
      }
    } finally {
      setBusy(null);
      // The outcome replaces the buttons; keep keyboard and screen-reader users with it.
      requestAnimationFrame(() => resultRef.current?.focus());
    }
  };

  if (loggedOut) return <LoginFirst ticket={ticket} />;

  if (status !== "pending" && status !== "scanned") {
    const ended = ENDED[status];
    return (
      <div ref={resultRef} tabIndex={-1} className="qr-confirm__result">
        <EmptyState glyph={ended.glyph} title={ended.title}>
          <p>{ended.text}</p>
        </EmptyState>
        <Requester view={view} />
      </div>
    );
  }

  return (
    <section className="qr-confirm" aria-labelledby="qr-confirm-question">
      <h2 id="qr-confirm-question" className="qr-confirm__question">
        一台电脑正在请求登录你的账号
      </h2>
      <Requester view={view} />
      <div className="notice notice--warning qr-confirm__warning">
        <p>
          请确认这是你自己正在使用的电脑。如果二维码是别人发给你的，或你不认识上面的设备，请点「取消」——
          确认后，那台电脑将登录你的账号。
        </p>
      </div>
      <div ref={resultRef} tabIndex={-1} role="alert" className="qr-confirm__problem">
        {problem}
      </div>
      <div className="qr-confirm__actions">
        <button
          type="button"
          className="button button--primary qr-confirm__wide"
          disabled={busy !== null}
          aria-busy={busy === "confirm"}
          onClick={() => void act("confirm")}
        >
          {busy === "confirm" ? "正在确认…" : "确认登录"}
        </button>
        <button
          type="button"
          className="button qr-confirm__wide"
          disabled={busy !== null}
          aria-busy={busy === "cancel"}
          onClick={() => void act("cancel")}
        >
          {busy === "cancel" ? "正在取消…" : "取消"}
        </button>
      </div>
      <p className="qr-confirm__expiry">
        二维码有效期至 <time dateTime={view.expiresAt}>{formatMonthDayTime(view.expiresAt)}</time>
      </p>
    </section>
  );
}

export default function QrConfirmPage() {
  const { ticket, view } = useLoaderData<typeof loader>();
  return (
    <Page className="qr-confirm-page" lead="用手机确认，电脑即可登录，无需输入密码。">
      {view ? <Confirm ticket={ticket} view={view} /> : <LoginFirst ticket={ticket} />}
    </Page>
  );
}
