import type { ReactNode } from "react";
import { Link } from "../../routing/link";

/** A section of the home page under its heading, with a lead and a link to see more. */
export function HomeSection({
  id,
  title,
  lead,
  more,
  children,
}: {
  id: string;
  title: string;
  lead?: string;
  more?: [string, string];
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <div className="home-section__head">
        <div>
          <h2 className="section-title" id={id}>
            {title}
          </h2>
          {lead ? <p className="section-lead">{lead}</p> : null}
        </div>
        {more ? (
          <Link className="home-section__more" to={more[0]}>
            {more[1]}
          </Link>
        ) : null}
      </div>
      {children}
    </section>
  );
}
