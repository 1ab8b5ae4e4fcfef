/**
 * Pieces the security page's sections share: a part of the data that may fail alone, its
 * failure notice, a done line, and a button that asks once more before it acts.
 */
import { type ReactNode, useState } from "react";
import { AjaxError } from "../../../../shared/ajax";

/** A part of the page that may fail alone: its data, or the status it failed with (0: network). */
export type Part<T> = { data: T } | { failed: number };

export async function part<T>(load: Promise<T>, signal: AbortSignal): Promise<Part<T>> {
  try {
    return { data: await load };
  } catch (err) {
    if (signal.aborted) throw err;
    return { failed: err instanceof AjaxError ? err.statusCode : 0 };
  }
}

export function PartFailed({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <div className="account-failed" role="alert">
      <p>{what}没能加载出来。</p>
      <button type="button" className="button button--small" onClick={onRetry}>
        重新加载
      </button>
    </div>
  );
}

export function Done({ children }: { children: ReactNode }) {
  return (
    <p className="form-success" role="status">
      {children}
    </p>
  );
}

/** A button that asks once more before it acts (removing a device, signing out a session). */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
}: {
  label: string;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!asking) {
    return (
      <button type="button" className="button button--small" onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span className="account-confirm">
      <button
        type="button"
        className="button button--primary button--small"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await onConfirm();
          } finally {
            setBusy(false);
            setAsking(false);
          }
        }}
      >
        {busy ? "处理中…" : confirmLabel}
      </button>
      <button type="button" className="button button--small" onClick={() => setAsking(false)}>
        取消
      </button>
    </span>
  );
}
