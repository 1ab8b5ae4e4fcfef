/** An honest empty state: says what is missing and, where there is one, what to do next. */
import type { ReactNode } from "react";

export function EmptyState({
  glyph = "墨",
  title,
  children,
  action,
}: {
  /** One character shown in the seal (a calligraphy school's empty state, not a stock icon). */
  glyph?: string;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className="card empty-state" role="status">
      <div className="seal seal--lg empty-state__glyph" aria-hidden="true">
        {glyph}
      </div>
      <p className="empty-state__title">{title}</p>
      {children ? <div className="empty-state__text">{children}</div> : null}
      {action ? <div className="empty-state__action">{action}</div> : null}
    </div>
  );
}
