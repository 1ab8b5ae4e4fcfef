/** Pieces the personal centre's pages share: the avatar, a section frame, a labelled row. */
import type { ReactNode } from "react";
import "./my.css";

/** The learner's avatar, or their first character on a seal when there is none yet. */
export function Avatar({
  url,
  nickname,
  size = "large",
}: {
  url: string | null;
  nickname: string;
  size?: "large" | "small";
}) {
  const px = size === "large" ? 120 : 64;
  if (url) {
    return (
      <img
        className={`account-avatar account-avatar--${size}`}
        src={url}
        alt={`${nickname}的头像`}
        width={px}
        height={px}
      />
    );
  }
  return (
    <span className={`seal account-avatar--${size}`} role="img" aria-label="未设置头像">
      {[...nickname][0] ?? "墨"}
    </span>
  );
}

export function AccountSection({
  title,
  lead,
  actions,
  children,
  id,
}: {
  title: string;
  lead?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  id?: string;
}) {
  const headingId = id ? `${id}-title` : undefined;
  return (
    <section className="account-section" id={id} aria-labelledby={headingId}>
      <header className="account-section__header">
        <div>
          <h2 className="account-section__title" id={headingId}>
            {title}
          </h2>
          {lead ? <p className="account-section__lead">{lead}</p> : null}
        </div>
        {actions ? <div className="account-section__actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  );
}

/** One line of a definition list: what, its state, and what can be done about it. */
export function AccountRow({ label, value, action }: { label: string; value: ReactNode; action?: ReactNode }) {
  return (
    <div className="account-row">
      <dt className="account-row__label">{label}</dt>
      <dd className="account-row__value">{value}</dd>
      {action ? <dd className="account-row__action">{action}</dd> : null}
    </div>
  );
}
