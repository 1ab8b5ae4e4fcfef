/**
 * One free public lesson (/video/PublicCourseItem?id=…) in the player, with the other public
 * lessons beside it. Everyone may watch; positions stay in the browser, a signed-in viewer's
 * speed is remembered by the server. A malformed or unknown id is the 404 page; the address
 * without an id (a bookmark of the bare page) lets the viewer pick a lesson.
 */
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { AppError, NOT_FOUND_MESSAGE } from "../../../shared/errors";
import type { PublicItemList, PublicItemView } from "../../../shared/contracts/learning";
import { coverSizes } from "../../../shared/media";
import { paramRules } from "../../../shared/routes";
import { Page } from "../../components/Page";
import { Player } from "../../components/player/Player";
import { videoObject } from "../../components/player/video-meta";
import { LazyImage } from "../../lib/lazy-image";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { NoPublicItems, PublicItemGrid, publicItemCover, publicItemPath } from "./PublicItemCard";
import "./video.css";
import { formatClock, formatDuration } from "../../../shared/format";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const learningContract = () => import("../../../shared/contracts/learning");

type PublicItemData = { mode: "one"; view: PublicItemView } | { mode: "pick"; list: PublicItemList };

export async function loader({ request, signal, env }: PageLoaderArgs) {
  const id = new URL(request.url).searchParams.get("id");
  if (id === null) {
    const list = await env.api("/api/learning/public-items", {
      signal,
      schema: learningContract().then((m) => m.publicItemListSchema),
    });
    return {
      mode: "pick",
      list,
      // The same lessons as /video: that is the page for search engines.
      meta: { title: "公开课", description: "选择一节免费公开课开始观看。", noindex: true },
    } satisfies PublicItemData & { meta: unknown };
  }
  if (!paramRules.id.safeParse(id).success) throw new AppError(404, NOT_FOUND_MESSAGE);
  const view = await env.api(`/api/learning/public-items/${id}`, {
    signal,
    schema: learningContract().then((m) => m.publicItemViewSchema),
  });
  const { item } = view;
  return {
    mode: "one",
    view,
    meta: {
      title: item.title,
      description: `${item.teacher.name}老师的免费公开课：${item.summary}`,
      image: view.sources.poster,
      type: "video.other",
      canonicalSearch: `?id=${item.id}`,
      jsonLd: videoObject({
        name: item.title,
        description: item.summary,
        thumbnailUrl: view.sources.poster,
        uploadDate: item.publishedAt,
        durationSeconds: item.durationSeconds,
        contentUrl: view.sources.mp4,
        url: publicItemPath(item.id),
        isAccessibleForFree: true,
        extra: { author: { "@type": "Person", name: item.teacher.name } },
      }),
    },
  } satisfies PublicItemData & { meta: unknown };
}

function PickLesson({ list }: { list: PublicItemList }) {
  return (
    <Page lead="请选择一节公开课开始观看，全部免费。">
      <h2 className="visually-hidden">公开课列表</h2>
      {list.items.length === 0 ? <NoPublicItems /> : <PublicItemGrid items={list.items} />}
    </Page>
  );
}

export default function PublicCourseItemPage() {
  const data = useLoaderData<typeof loader>();
  return data.mode === "one" ? (
    <PublicItem key={data.view.item.id} view={data.view} />
  ) : (
    <PickLesson list={data.list} />
  );
}

function PublicItem({ view }: { view: PublicItemView }) {
  const { item, sources } = view;
  const size = coverSizes.landscape;
  return (
    <Page
      title={item.title}
      className="page--public-item"
      lead={
        <>
          <Link className="text-link" to="/video">
            公开课
          </Link>
          <span className="lesson-lead__sep"> · </span>
          {item.teacher.name}老师
          <span className="lesson-lead__sep"> · </span>
          {formatDuration(item.durationSeconds)}
          <span className="lesson-lead__sep"> · </span>免费观看
        </>
      }
    >
      <div className="player-layout">
        <div className="lesson-main">
          <Player
            title={item.title}
            sources={sources}
            durationSeconds={item.durationSeconds}
            serverSpeed={view.speed}
            serverPosition={null}
            reportUrl={null}
            storageKey={`public:${item.id}`}
          />
          <p className="lesson-steps__hint public-item__hint">空格键 播放/暂停 · ← → 快退/快进 5 秒</p>
        </div>
        <aside className="card player-side" aria-label="更多公开课">
          <div className="player-side__head">
            <h2 className="player-side__title">更多公开课</h2>
            <Link className="player-side__note text-link" to="/video">
              全部
            </Link>
          </div>
          <div className="player-side__body">
            {view.more.length === 0 ? (
              <p className="lesson-outline__empty">暂时只有这一节公开课。</p>
            ) : (
              <ul className="public-side__list">
                {view.more.map((other) => (
                  <li key={other.id}>
                    <Link className="public-side__item" to={publicItemPath(other.id)}>
                      <LazyImage
                        className="public-side__cover"
                        src={publicItemCover(other)}
                        alt={`${other.title}封面`}
                        width={size.width}
                        height={size.height}
                      />
                      <span className="public-side__text">
                        <span className="public-side__title">{other.title}</span>
                        <span className="public-side__meta">
                          {other.teacherName}老师 · {formatClock(other.durationSeconds)}
                        </span>
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </aside>
      </div>
      <section className="lesson-about" aria-labelledby="public-about-title">
        <div className="lesson-about__text">
          <h2 className="section-title" id="public-about-title">
            内容简介
          </h2>
          <p>{item.summary}</p>
          <p className="lesson-about__tip">公开课免费观看，看到哪里会记在这台电脑的浏览器里，下次打开接着看。</p>
        </div>
        <div className="card lesson-course public-item__teacher">
          <span className="public-item__seal" aria-hidden="true">
            {item.teacher.name.slice(0, 1)}
          </span>
          <span className="lesson-course__text">
            <span className="lesson-course__title">{item.teacher.name}老师</span>
            <span className="lesson-course__meta">{item.teacher.title}</span>
            <span className="lesson-course__meta">{item.teacher.specialty}</span>
          </span>
        </div>
      </section>
    </Page>
  );
}
