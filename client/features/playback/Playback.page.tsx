/**
 * 回放 (/playback): the recordings of finished live lessons, newest first; `?id=` plays one in
 * the lesson player with the teacher's chapter marks beside it (click to jump). Access follows
 * the live session: its course's learners, or everyone when the session was open.
 */
import { useRef, useState } from "react";
import { useLoaderData, useSearchParams } from "react-router-dom";
import { Link } from "../../routing/link";
import type { ReplayList, ReplayView } from "../../../shared/contracts/learning";
import { AppError, NOT_FOUND_MESSAGE } from "../../../shared/errors";
import { coverUrl } from "../../../shared/media";
import { priceLabel } from "../../../shared/money";
import { paramRules } from "../../../shared/routes";
import { LiveCard } from "../../components/cards/CatalogueCards";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import { LockedScreen } from "../../components/player/LockedScreen";
import { Player, type PlayerHandle } from "../../components/player/Player";
import { videoObject } from "../../components/player/video-meta";
import type { PageLoaderArgs } from "../../routing/nav-context";
import "./playback.css";
import { formatClock, formatDuration, formatMonthDayTime } from "../../../shared/format";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const learningContract = () => import("../../../shared/contracts/learning");

type PlaybackData = { mode: "list"; list: ReplayList } | { mode: "one"; view: ReplayView };

const replayPath = (id: number) => `/playback?id=${id}`;

export async function loader({ request, signal, env }: PageLoaderArgs) {
  const search = new URL(request.url).searchParams;
  const id = search.get("id");
  if (id !== null) {
    if (!paramRules.id.safeParse(id).success) throw new AppError(404, NOT_FOUND_MESSAGE);
    const view = await env.api(`/api/learning/replays/${id}`, {
      signal,
      schema: learningContract().then((m) => m.replayViewSchema),
    });
    const { replay } = view;
    const cover = coverUrl(replay.coverChar, "red", "landscape");
    const description = replay.summary || `${replay.teacherName}老师的直播回放：${replay.title}`;
    return {
      mode: "one",
      view,
      meta: {
        title: `${replay.title} · 回放`,
        description,
        image: view.sources?.poster ?? cover,
        type: "video.other",
        canonicalSearch: `?id=${replay.id}`,
        jsonLd: videoObject({
          name: replay.title,
          description,
          thumbnailUrl: view.sources?.poster ?? cover,
          uploadDate: replay.endsAt,
          durationSeconds: replay.durationSeconds,
          contentUrl: replay.isOpen ? view.sources?.mp4 : undefined,
          url: replayPath(replay.id),
          isAccessibleForFree: replay.isOpen,
          extra: {
            hasPart: replay.chapterMarks.map((mark) => ({
              "@type": "Clip",
              name: mark.title,
              startOffset: mark.at,
              url: `${replayPath(replay.id)}&t=${mark.at}`,
            })),
          },
        }),
      },
    } satisfies PlaybackData & { meta: unknown };
  }
  const pageText = search.get("page") ?? "1";
  if (!/^[1-9]\d{0,2}$/.test(pageText)) throw new AppError(404, NOT_FOUND_MESSAGE);
  const list = await env.api(`/api/learning/replays?page=${pageText}`, {
    signal,
    schema: learningContract().then((m) => m.replayListSchema),
  });
  return {
    mode: "list",
    list,
    meta: {
      title: list.page > 1 ? `回放 · 第 ${list.page} 页` : "回放",
      description: "直播课结束后生成的回放：楷书、隶书、篆书、草书、硬笔与作文直播，学员可以随时回看，进度自动保存。",
      canonicalSearch: list.page > 1 ? `?page=${list.page}` : undefined,
    },
  } satisfies PlaybackData & { meta: unknown };
}

function ReplayListView({ list }: { list: ReplayList }) {
  const pages = Math.max(1, Math.ceil(list.total / list.pageSize));
  return (
    <Page lead="直播课结束约两小时后生成回放。报名课程的学员可以随时回看，支持倍速，进度自动保存。">
      {list.items.length === 0 ? (
        <EmptyState
          glyph="回"
          title={list.page > 1 ? "这一页没有回放了" : "还没有可以回看的直播"}
          action={
            list.page > 1 ? (
              <Link className="button button--primary" to="/playback">
                回到第一页
              </Link>
            ) : (
              <Link className="button button--primary" to="/live">
                看看近期直播
              </Link>
            )
          }
        >
          <p>直播课结束后，回放生成好就会出现在这里。</p>
        </EmptyState>
      ) : (
        <section aria-labelledby="replay-list-title">
          <h2 className="section-title" id="replay-list-title">
            全部回放 · {list.total} 场
          </h2>
          <p className="section-lead">按直播时间排列，最新的在前。</p>
          <ul className="catalogue-grid replay-grid">
            {list.items.map((replay) => (
              <li key={replay.id}>
                <LiveCard
                  live={replay}
                  action={
                    <span className="replay-card__foot">
                      <span className="replay-card__course">{replay.courseTitle ?? "公开直播"}</span>
                      <span className="replay-card__row">
                        <span className="replay-card__meta">
                          {replay.durationSeconds !== null ? `回放 ${formatClock(replay.durationSeconds)}` : ""}
                          {replay.chapterMarks.length > 0 ? ` · ${replay.chapterMarks.length} 个章节` : ""}
                        </span>
                        <Link
                          className="button button--small button--primary"
                          to={replayPath(replay.id)}
                          aria-label={`看回放：${replay.title}`}
                        >
                          看回放
                        </Link>
                      </span>
                    </span>
                  }
                />
              </li>
            ))}
          </ul>
          {pages > 1 ? (
            <nav className="replay-pages" aria-label="翻页">
              {list.page > 1 ? (
                <Link className="button button--small" to={`/playback?page=${list.page - 1}`} rel="prev">
                  上一页
                </Link>
              ) : null}
              <span>
                第 {list.page} / {pages} 页
              </span>
              {list.hasMore ? (
                <Link className="button button--small" to={`/playback?page=${list.page + 1}`} rel="next">
                  下一页
                </Link>
              ) : null}
            </nav>
          ) : null}
        </section>
      )}
    </Page>
  );
}

function ReplayLocked({ view }: { view: ReplayView }) {
  const { access, course, viewer } = view;
  if (access.reason === "processing") {
    return (
      <LockedScreen
        glyph="候"
        title="回放生成中"
        message={access.message}
        actions={
          <Link className="button" to="/playback">
            看看其他回放
          </Link>
        }
      />
    );
  }
  return (
    <LockedScreen
      title="课程学员专享回放"
      message={access.message}
      actions={
        <>
          {!viewer.signedIn ? (
            <Link className="button button--primary" to="?login=1">
              登录
            </Link>
          ) : null}
          {course ? (
            <Link className={`button${viewer.signedIn ? " button--primary" : ""}`} to={`/course/${course.id}`}>
              {course.priceCents > 0 ? `购买课程（${priceLabel(course.priceCents)}）` : "免费报名课程"}
            </Link>
          ) : null}
        </>
      }
    />
  );
}

function ReplayOne({ view }: { view: ReplayView }) {
  const { replay, sources, course, viewer } = view;
  const player = useRef<PlayerHandle>(null);
  const [second, setSecond] = useState(-1);
  // `&t=90`: a link to a moment of the recording (the chapters in the page's structured data).
  const [search] = useSearchParams();
  const t = Number(search.get("t") ?? "");
  const startAt = search.has("t") && Number.isInteger(t) && t >= 0 ? t : undefined;
  const marks = replay.chapterMarks;
  const currentMark = second < 0 ? -1 : marks.reduce((found, mark, i) => (mark.at <= second ? i : found), -1);

  return (
    <Page
      title={replay.title}
      className="page--replay"
      lead={
        <>
          <Link className="text-link" to="/playback">
            回放
          </Link>
          <span className="replay-lead__sep"> · </span>
          {replay.teacherName}老师
          <span className="replay-lead__sep"> · </span>
          {formatMonthDayTime(replay.startsAt)} 直播
          {replay.durationSeconds !== null ? (
            <>
              <span className="replay-lead__sep"> · </span>回放 {formatDuration(replay.durationSeconds)}
            </>
          ) : null}
        </>
      }
    >
      <div className="player-layout">
        <div className="replay-main">
          {sources ? (
            <Player
              ref={player}
              key={replay.id}
              title={replay.title}
              sources={sources}
              durationSeconds={replay.durationSeconds ?? 0}
              serverSpeed={view.resume?.speed ?? null}
              serverPosition={view.resume?.position ?? null}
              serverSavedAt={view.resume?.savedAt ?? null}
              reportUrl={viewer.signedIn ? `/api/learning/replays/${replay.id}/progress` : null}
              storageKey={`replay:${replay.id}`}
              marks={marks}
              startAt={startAt}
              onSecond={setSecond}
            />
          ) : (
            <ReplayLocked view={view} />
          )}
          {sources ? (
            <p className="replay-hint">点章节可以直接跳到那一段 · 空格键 播放/暂停 · ← → 快退/快进 5 秒</p>
          ) : null}
        </div>
        <aside className="card player-side player-side--fit" aria-label="回放章节">
          <div className="player-side__head">
            <h2 className="player-side__title">章节</h2>
            <span className="player-side__note">共 {marks.length} 段</span>
          </div>
          <div className="player-side__body">
            {marks.length === 0 ? (
              <p className="replay-marks__empty">老师还没有为这场回放标注章节。</p>
            ) : (
              <ol className="replay-marks">
                {marks.map((mark, i) => (
                  <li key={`${mark.at}-${mark.title}`}>
                    <button
                      type="button"
                      className={`replay-marks__item${i === currentMark ? " is-current" : ""}`}
                      aria-current={i === currentMark ? "true" : undefined}
                      disabled={!sources}
                      onClick={() => {
                        player.current?.seek(mark.at);
                        player.current?.play();
                      }}
                    >
                      <span className="replay-marks__time">{formatClock(mark.at)}</span>
                      <span className="replay-marks__title">{mark.title}</span>
                    </button>
                  </li>
                ))}
              </ol>
            )}
          </div>
        </aside>
      </div>
      <section className="replay-about" aria-labelledby="replay-about-title">
        <div>
          <h2 className="section-title" id="replay-about-title">
            本场内容
          </h2>
          <p>{replay.summary || "本场直播暂无文字介绍。"}</p>
        </div>
        {course ? (
          <Link className="card replay-course" to={`/course/${course.id}`}>
            <span className="replay-course__label">所属课程</span>
            <span className="replay-course__title">{course.title}</span>
            <span className="replay-course__more">
              {viewer.enrolled ? "查看课程" : `${priceLabel(course.priceCents)} · 查看课程详情`} ›
            </span>
          </Link>
        ) : null}
      </section>
    </Page>
  );
}

export default function PlaybackPage() {
  const data = useLoaderData<typeof loader>();
  return data.mode === "one" ? (
    <ReplayOne key={data.view.replay.id} view={data.view} />
  ) : (
    <ReplayListView list={data.list} />
  );
}
