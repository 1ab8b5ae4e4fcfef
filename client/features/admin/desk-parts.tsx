/**
 * Pieces the operators' desk pages share (dashboard, orders, accounts): a loader result that
 * keeps an API failure for the page to show with a retry, the error and loading panels, ages.
 */
import type { ReactNode } from "react";
import { useNavigation, useRevalidator } from "react-router-dom";
import { describeProblem, type Problem } from "../../lib/problem";

export type Loaded<T> = { ok: true; data: T } | { ok: false; problem: Problem };

/** Awaits an API read for a loader: a refusal or an outage becomes data the page shows, with a retry. */
export async function loaded<T>(read: Promise<T>): Promise<Loaded<T>> {
  try {
    return { ok: true, data: await read };
  } catch (err) {
    const problem = describeProblem(err);
    // Not found stays the 404 page; everything else is shown on the page with 重试.
    if (problem.statusCode === 404) throw err;
    return { ok: false, problem };
  }
}

/** True while the page's data is being read again (navigation to it or a retry). */
export function useReloading(): boolean {
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  return navigation.state === "loading" || revalidator.state === "loading";
}

export function LoadFailed({ problem, what }: { problem: Problem; what: string }) {
  const revalidator = useRevalidator();
  const busy = revalidator.state === "loading";
  return (
    <div className="card desk-failed" role="alert">
      <p className="desk-failed__title">{what}没有加载出来</p>
      <p className="desk-failed__message">{problem.message}</p>
      <button type="button" className="button" onClick={() => void revalidator.revalidate()} disabled={busy}>
        {busy ? "正在重试…" : "重试"}
      </button>
    </div>
  );
}

/** A panel that dims and says so while its data is read again. */
export function DeskBusy({ children, className }: { children: ReactNode; className?: string }) {
  const busy = useReloading();
  return (
    <div className={`desk-busy${className ? ` ${className}` : ""}`} aria-busy={busy} data-busy={busy || undefined}>
      {busy ? (
        <p className="desk-busy__note" role="status">
          正在加载…
        </p>
      ) : null}
      {children}
    </div>
  );
}

/** How long ago, coarsely: "刚刚", "25 分钟", "3 小时 20 分", "2 天 4 小时". */
export function formatAge(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 1) return "刚刚";
  if (minutes < 60) return `${minutes} 分钟`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} 小时${minutes % 60 ? ` ${minutes % 60} 分` : ""}`;
  const days = Math.floor(hours / 24);
  return `${days} 天${hours % 24 ? ` ${hours % 24} 小时` : ""}`;
}
