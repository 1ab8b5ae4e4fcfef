/** The frame of every page: its heading (the title of the route table unless given) and body. */
import type { ReactNode } from "react";
import { useMatches } from "react-router-dom";
import { defOf } from "../../shared/routes";

export function usePageTitle(): string {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const m = matches[i];
    const def = m ? defOf(m) : undefined;
    if (def) return def.title;
  }
  return "";
}

export function Page({
  title,
  lead,
  actions,
  className,
  children,
}: {
  title?: string;
  lead?: ReactNode;
  actions?: ReactNode;
  className?: string;
  children?: ReactNode;
}) {
  const fallback = usePageTitle();
  return (
    <article className={`page${className ? ` ${className}` : ""}`}>
      <header className="page__header">
        <h1 className="page__title">{title ?? fallback}</h1>
        {lead ? <p className="page__lead">{lead}</p> : null}
        {actions ? <div className="page__actions">{actions}</div> : null}
      </header>
      <div className="page__body">{children}</div>
    </article>
  );
}
