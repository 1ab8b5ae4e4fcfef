/**
 * 作业墙 (/homework?script=): work rated 优 whose learners agreed to show it, newest first, as a
 * waterfall that loads more near its end; a plain 加载更多 link (?cursor=) serves crawlers and
 * browsers without scripts. Each card opens the work's share page. On a phone, two columns and
 * a call to action that stays at the bottom of the screen.
 */
import { useEffect, useRef, useState } from "react";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { SCRIPT_LABELS, SCRIPTS, type Script, type WallItem } from "../../../shared/contracts/homework";
import { EmptyState } from "../../components/EmptyState";
import { WallCard } from "../../components/homework/WallCard";
import { Page } from "../../components/Page";
import { browserApi } from "../../lib/api";
import { Waterfall } from "../../lib/waterfall";
import type { PageLoaderArgs } from "../../routing/nav-context";
import "./homework-wall.css";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const homeworkContract = () => import("../../../shared/contracts/homework");

/** The wall's query for a script and a cursor, for this page and for the API alike. */
export function wallQuery(script: Script | null, cursor?: string | null): string {
  const params = new URLSearchParams();
  if (script) params.set("script", script);
  if (cursor) params.set("cursor", cursor);
  const query = params.toString();
  return query ? `?${query}` : "";
}

export async function loader({ env, signal, request }: PageLoaderArgs) {
  const params = new URL(request.url).searchParams;
  const raw = params.get("script");
  const script = (SCRIPTS as readonly string[]).includes(raw ?? "") ? (raw as Script) : null;
  const cursor = params.get("cursor")?.slice(0, 64) || null;
  const wall = await env.api(`/api/homework/wall${wallQuery(script, cursor)}`, {
    signal,
    schema: homeworkContract().then((m) => m.wallSchema),
  });
  const what = script ? `${SCRIPT_LABELS[script]}` : "书法";
  return {
    wall,
    script,
    cursor,
    meta: {
      title: script ? `作业墙 · ${SCRIPT_LABELS[script]}` : "作业墙",
      description: `学员的优秀${what}作业：老师批改评为“优”、经学员同意公开的习作，附老师的评语与批注。`,
      canonicalSearch: wallQuery(script, cursor),
      image: wall.items[0]?.thumbUrl,
    },
  };
}

/** Columns for the wall's width: two on a narrow screen, more on a wide one. */
export function wallColumns(width: number): number {
  return Math.max(2, Math.min(5, Math.floor(width / 240)));
}

function WallList({
  first,
  script,
}: {
  first: { items: WallItem[]; nextCursor: string | null };
  script: Script | null;
}) {
  const [items, setItems] = useState(first.items);
  const [cursor, setCursor] = useState(first.nextCursor);
  const [failed, setFailed] = useState(false);
  const [columns, setColumns] = useState(2);
  const loading = useRef(false);
  const root = useRef<HTMLDivElement | null>(null);

  useEffect(() => {
    const el = root.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setColumns(wallColumns(entry.contentRect.width));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  async function loadMore() {
    if (!cursor || loading.current) return;
    loading.current = true;
    setFailed(false);
    try {
      const page = await browserApi(`/api/homework/wall${wallQuery(script, cursor)}`, {
        schema: homeworkContract().then((m) => m.wallSchema),
      });
      setItems((prev) => [...prev, ...page.items]);
      setCursor(page.nextCursor);
    } catch {
      setFailed(true);
    } finally {
      loading.current = false;
    }
  }

  return (
    <div ref={root}>
      <Waterfall
        key={columns}
        items={items}
        columns={columns}
        getKey={(item) => item.shareId}
        // The first work of each column is above the fold: its picture comes with the document.
        render={(item, index) => <WallCard item={item} priority={index < columns} />}
        onLoadMore={failed ? undefined : () => void loadMore()}
        className="wall"
      />
      {cursor ? (
        <p className="wall__more">
          {failed ? <span role="alert">加载失败，</span> : null}
          <a
            href={`/homework${wallQuery(script, cursor)}`}
            onClick={(event) => {
              event.preventDefault();
              void loadMore();
            }}
          >
            {failed ? "点此重试" : "加载更多"}
          </a>
        </p>
      ) : items.length > 0 ? (
        <p className="wall__more">已经到底了</p>
      ) : null}
    </div>
  );
}

export default function HomeworkWallPage() {
  const { wall, script, cursor } = useLoaderData<typeof loader>();
  const filters: { script: Script | null; label: string }[] = [
    { script: null, label: "全部" },
    ...SCRIPTS.map((s) => ({ script: s, label: SCRIPT_LABELS[s] })),
  ];
  return (
    <Page title="作业墙" lead="老师评为“优”、经学员同意公开的习作，附评语与批注。">
      <nav aria-label="按书体筛选">
        <ul className="wall-filter">
          {filters.map((f) => (
            <li key={f.script ?? "all"}>
              <Link to={`/homework${wallQuery(f.script)}`} aria-current={f.script === script ? "page" : undefined}>
                {f.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      {wall.items.length === 0 ? (
        <EmptyState
          glyph="墙"
          title={cursor ? "这一页没有作品了" : script ? `还没有${SCRIPT_LABELS[script]}作品上墙` : "作业墙还空着"}
          action={
            <Link className="button button--primary" to={cursor || script ? "/homework" : "/product/list"}>
              {cursor || script ? "看全部作品" : "去选一门课"}
            </Link>
          }
        >
          <p>学员交的作业被老师评为“优”，并且同意展示时，就会出现在这里。</p>
        </EmptyState>
      ) : (
        <WallList key={wallQuery(script, cursor)} first={wall} script={script} />
      )}
      <div className="wall__cta">
        <Link className="button button--primary" to="/product/list">
          我也要学书法
        </Link>
      </div>
    </Page>
  );
}
