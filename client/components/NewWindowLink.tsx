/** A link that opens in a new window through the one window helper (noopener, popup-safe). */
import type { ReactNode } from "react";
import { openWindow } from "../lib/open-window";

export function NewWindowLink({
  href,
  className,
  children,
}: {
  href: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <a
      href={href}
      className={className}
      target="_blank"
      rel="noopener noreferrer"
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return; // let the browser handle modified clicks
        if (openWindow(href)) e.preventDefault();
      }}
    >
      {children}
    </a>
  );
}
