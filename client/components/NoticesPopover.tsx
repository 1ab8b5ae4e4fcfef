/**
 * The header's 通知 button: the unread count as a badge, and on opening a small panel with the
 * latest notices, fetched then (never on the server) and marked read once shown.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { Notice } from "../../shared/contracts/me";
import { browserApi } from "../lib/api";
import { splitSitePaths } from "../lib/site-links";
import "./NoticesPopover.css";
import { formatDateTime } from "../../shared/format";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const meContract = () => import("../../shared/contracts/me");

type PanelState = { status: "idle" | "loading" | "error" } | { status: "ready"; items: Notice[] };

export function NoticesPopover({ unread: initialUnread }: { unread: number }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const [open, setOpen] = useState(false);
  const [unread, setUnread] = useState(initialUnread);
  const [panel, setPanel] = useState<PanelState>({ status: "idle" });

  // A new page may bring a newer count from the server.
  const [fromServer, setFromServer] = useState(initialUnread);
  if (fromServer !== initialUnread) {
    setFromServer(initialUnread);
    setUnread(initialUnread);
  }

  const load = useCallback(async () => {
    setPanel({ status: "loading" });
    try {
      const list = await browserApi("/api/notices", { schema: meContract().then((m) => m.noticeListSchema) });
      // Shown as they were (new ones marked), then counted as read.
      setPanel({ status: "ready", items: list.items });
      setUnread(list.unread);
      const ids = list.items.filter((n) => !n.read).map((n) => n.id);
      if (ids.length > 0) {
        const after = await browserApi("/api/notices/read", {
          method: "POST",
          body: { ids },
          schema: meContract().then((m) => m.noticesReadResultSchema),
        });
        setUnread(after.unread);
      }
    } catch {
      setPanel((p) => (p.status === "ready" ? p : { status: "error" }));
    }
  }, []);

  // Closes on Escape and on a click elsewhere, like a menu.
  useEffect(() => {
    if (!open) return;
    const close = () => {
      if (ref.current) ref.current.open = false;
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        close();
        ref.current?.querySelector("summary")?.focus();
      }
    };
    const onClick = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) close();
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick);
    };
  }, [open]);

  return (
    <details
      ref={ref}
      className="notices-popover"
      onToggle={(e) => {
        const isOpen = e.currentTarget.open;
        setOpen(isOpen);
        if (isOpen) void load();
      }}
    >
      <summary className="notices-popover__summary" aria-label={`通知，${unread} 条未读`}>
        通知
        {unread > 0 ? (
          <span className="badge" aria-hidden="true">
            {unread > 99 ? "99+" : unread}
          </span>
        ) : null}
      </summary>
      <div
        className="notices-popover__panel"
        role="region"
        aria-label="通知列表"
        aria-busy={panel.status === "loading"}
      >
        <p className="notices-popover__heading">通知</p>
        <NoticesBody panel={panel} onRetry={() => void load()} />
      </div>
    </details>
  );
}

function NoticesBody({ panel, onRetry }: { panel: PanelState; onRetry: () => void }) {
  if (panel.status === "ready") {
    if (panel.items.length === 0) {
      return <p className="notices-popover__status">暂无通知。账号安全、订单和作业批改的消息会出现在这里。</p>;
    }
    return (
      <ol className="notices-popover__list">
        {panel.items.map((n) => (
          <li key={n.id} className={`notice-item${n.read ? "" : " notice-item--new"}`}>
            <p className="notice-item__title">
              {n.read ? null : <span className="visually-hidden">未读：</span>}
              {n.title}
            </p>
            {n.body ? (
              <p className="notice-item__body">
                {splitSitePaths(n.body).map((part, i) =>
                  "path" in part ? (
                    <a key={i} className="text-link" href={part.path}>
                      {part.path}
                    </a>
                  ) : (
                    part.text
                  ),
                )}
              </p>
            ) : null}
            <time className="notice-item__time" dateTime={n.createdAt}>
              {formatDateTime(n.createdAt)}
            </time>
          </li>
        ))}
      </ol>
    );
  }
  if (panel.status === "error") {
    return (
      <div className="notices-popover__status" role="alert">
        <p>通知没能加载出来。</p>
        <button type="button" className="button button--small" onClick={onRetry}>
          重试
        </button>
      </div>
    );
  }
  return <p className="notices-popover__status">正在加载…</p>;
}
