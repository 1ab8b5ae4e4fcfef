/**
 * What stands in the player's place when the viewer may not watch: the same 16:9 shape (nothing
 * shifts), why, and what to do about it. The page sends no video address at all in this case.
 */
import type { ReactNode } from "react";
import "./player.css";

export function LockedScreen({
  glyph = "锁",
  title,
  message,
  actions,
}: {
  glyph?: string;
  title: string;
  message: string;
  actions?: ReactNode;
}) {
  return (
    <div className="player-locked" role="region" aria-label="暂时不能观看">
      <div className="seal" aria-hidden="true">
        {glyph}
      </div>
      <p className="player-locked__title">{title}</p>
      <p className="player-locked__text">{message}</p>
      {actions ? <div className="player-locked__actions">{actions}</div> : null}
    </div>
  );
}
