/** 首页 › section › page, from the matched routes. Not shown on the home page. */
import { useMatches } from "react-router-dom";
import { Link } from "../routing/link";
import { defOf } from "../../shared/routes";

export function Breadcrumb() {
  const matches = useMatches();
  const crumbs: Array<{ title: string; to: string }> = [];
  for (const m of matches) {
    const def = defOf(m);
    if (!def || def.id === "home") continue;
    const meta = (m.loaderData as { meta?: { title?: string } } | null | undefined)?.meta;
    const title = meta?.title ?? def.title;
    if (crumbs[crumbs.length - 1]?.title === title) continue;
    crumbs.push({ title, to: m.pathname.replace(/\/index\.html$/, "") || "/" });
  }
  if (crumbs.length === 0) return null;
  return (
    <nav className="breadcrumb" aria-label="面包屑">
      <ol>
        <li>
          <Link to="/">首页</Link>
        </li>
        {crumbs.map((c, i) => (
          <li key={c.to} aria-current={i === crumbs.length - 1 ? "page" : undefined}>
            {i === crumbs.length - 1 ? <span>{c.title}</span> : <Link to={c.to}>{c.title}</Link>}
          </li>
        ))}
      </ol>
    </nav>
  );
}
