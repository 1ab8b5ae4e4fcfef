/**
 * A group as the course page's group-buy dialog and the group page show it: a member's avatar
 * and the time the group has left on the server's clock.
 */
import type { GroupPerson } from "../../../shared/contracts/groups";
import { formatCountdown } from "../../../shared/format";
import { useCountdown } from "../../lib/countdown";
import "../commerce/commerce.css";
import "./groupbuy.css";

/** Time left until `expiresAt` on the server's clock, ticking every second. */
export function TimeLeft({ expiresAt, serverNow, label }: { expiresAt: string; serverNow: string; label?: string }) {
  const left = useCountdown(expiresAt, serverNow);
  return (
    <span className="group-time" role="timer" aria-live="off">
      {label ? <span className="group-time__label">{label}</span> : null}
      <strong data-testid="group-countdown">{left > 0 ? formatCountdown(left) : "已到期"}</strong>
    </span>
  );
}

/** A member's avatar, or their initial on the seal colour when they have none. */
export function GroupAvatar({ person, size = 48 }: { person: GroupPerson; size?: number }) {
  if (person.avatarUrl) {
    return (
      <img
        className="group-avatar"
        src={person.avatarUrl}
        alt={`${person.nickname}的头像`}
        width={size}
        height={size}
        style={{ width: size, height: size }}
      />
    );
  }
  return (
    <span
      className="group-avatar group-avatar--initial"
      style={{ width: size, height: size, fontSize: Math.round(size * 0.42) }}
      role="img"
      aria-label={`${person.nickname}的头像`}
    >
      {[...person.nickname][0] ?? "墨"}
    </span>
  );
}
