/**
 * Watching a lesson (/video/:id): the player beside the course outline, previous and next
 * lesson, and the offer to go on when a lesson ends. A lesson the viewer may not watch shows
 * why and how to get access instead; its video address never reaches the page.
 */
import { useRef, useState } from "react";
import { useLoaderData, useLocation } from "react-router-dom";
import { Link } from "../../routing/link";
import { categoryTones } from "../../../shared/contracts/catalogue";
import type { LessonView, ProgressResult } from "../../../shared/contracts/learning";
import { coverUrl } from "../../../shared/media";
import { priceLabel } from "../../../shared/money";
import { Page } from "../../components/Page";
import { LockedScreen } from "../../components/player/LockedScreen";
import { Player, type PlayerHandle } from "../../components/player/Player";
import { videoObject } from "../../components/player/video-meta";
import type { LessonHomework } from "../../../shared/contracts/homework";
import { QrPopover } from "../../components/QrPopover";
import { hydrateLater } from "../../lib/hydrate-later";
import { useRootData } from "../../lib/root-data";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { findLesson } from "./find-lesson";
import type { LessonProgressView } from "./LessonOutline";
import "./video.css";
import { formatDuration } from "../../../shared/format";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const homeworkContract = () => import("../../../shared/contracts/homework");
const learningContract = () => import("../../../shared/contracts/learning");

export async function loader({ params, signal, env }: PageLoaderArgs) {
  const [view, homework] = await Promise.all([
    env.api(`/api/learning/lessons/${params.id}`, {
      signal,
      schema: learningContract().then((m) => m.lessonViewSchema),
    }),
    // The lesson plays even when its homework cannot be loaded; the panel is simply left out.
    env
      .api(`/api/homework/lessons/${params.id}`, {
        signal,
        schema: homeworkContract().then((m) => m.lessonHomeworkSchema),
      })
      .catch(() => null),
  ]);
  const { lesson, course } = view;
  const cover = coverUrl(course.coverChar, categoryTones[course.category], "landscape");
  const description = lesson.summary || `${course.title}第 ${lesson.number} 课：${lesson.title}。`;
  return {
    view,
    homework,
    meta: {
      title: `${lesson.title} · ${course.title}`,
      description,
      image: view.sources?.poster ?? cover,
      type: "video.other",
      jsonLd: videoObject({
        name: `${course.title} · ${lesson.title}`,
        description,
        thumbnailUrl: view.sources?.poster ?? cover,
        uploadDate: course.publishedAt,
        durationSeconds: lesson.durationSeconds,
        // Only a trial lesson is open to everyone; other addresses stay with those who may watch.
        contentUrl: lesson.isTrial ? view.sources?.mp4 : undefined,
        url: `/video/${lesson.id}`,
        isAccessibleForFree: lesson.isTrial,
        extra: { isPartOf: { "@type": "Course", name: course.title, url: `/course/${course.id}` } },
      }),
    },
  };
}

// The outline beside the player and the homework panel below it are drawn with the page and
// hydrate on their own when their code arrives: the player does not wait for them (decision 059).
const LessonOutline = hydrateLater(() => import("./LessonOutline").then((m) => m.LessonOutline));
const LessonHomeworkPanel = hydrateLater(() => import("./LessonHomework").then((m) => m.LessonHomeworkPanel));
// What the player shows when the lesson ends, loaded the same way, long before it is needed.
// The course's card at the foot of the page, with its lazily loaded cover.
const LessonCourseCard = hydrateLater(() => import("./LessonCourse").then((m) => m.LessonCourseCard));
const EndScreen = hydrateLater(() => import("./LessonEnd").then((m) => m.LessonEnd));

function Locked({ view }: { view: LessonView }) {
  const { access, course, viewer } = view;
  const firstOpen = view.outline.flatMap((ch) => ch.lessons).find((l) => !l.locked);
  const title = access.reason === "camp_locked" ? "训练营按天解锁" : "这节课还没有解锁";
  return (
    <LockedScreen
      glyph={access.reason === "camp_locked" ? "候" : "锁"}
      title={title}
      message={access.message}
      actions={
        <>
          {!viewer.signedIn ? (
            <Link className="button button--primary" to="?login=1">
              登录
            </Link>
          ) : null}
          <Link
            className={`button${viewer.signedIn && access.reason !== "camp_locked" ? " button--primary" : ""}`}
            to={`/course/${course.id}`}
          >
            {access.reason === "purchase"
              ? `购买课程（${priceLabel(course.priceCents)}）`
              : access.reason === "camp_locked"
                ? "查看开营安排"
                : "去课程页报名"}
          </Link>
          {firstOpen && access.reason !== "camp_locked" ? (
            <Link className="button" to={`/video/${firstOpen.id}`}>
              先看试看课
            </Link>
          ) : null}
        </>
      }
    />
  );
}

function LessonPage({ view, homework }: { view: LessonView; homework: LessonHomework | null }) {
  const { lesson, course, sources, viewer } = view;
  const location = useLocation();
  const [reported, setReported] = useState<Record<number, LessonProgressView>>({});
  const player = useRef<PlayerHandle>(null);
  const autoPlay = (location.state as { autoplay?: boolean } | null)?.autoplay === true;

  const progressOf = (id: number): LessonProgressView | null => reported[id] ?? findLesson(view, id)?.progress ?? null;
  const onProgress = (result: ProgressResult) =>
    setReported((prev) => ({ ...prev, [lesson.id]: { percent: result.percent, completed: result.completed } }));

  const prev = findLesson(view, view.prevLessonId);
  const next = findLesson(view, view.nextLessonId);
  const lessonPath = `/video/${lesson.id}`;

  return (
    <Page
      title={lesson.title}
      className="page--lesson"
      lead={
        <>
          <Link className="text-link" to={`/course/${course.id}`}>
            {course.title}
          </Link>
          <span className="lesson-lead__sep"> · </span>
          {lesson.chapter.title}
          <span className="lesson-lead__sep"> · </span>第 {lesson.number} 课
          <span className="lesson-lead__sep"> · </span>
          {formatDuration(lesson.durationSeconds)}
        </>
      }
    >
      <div className="player-layout">
        <div className="lesson-main">
          {sources ? (
            <Player
              ref={player}
              title={lesson.title}
              sources={sources}
              durationSeconds={lesson.durationSeconds}
              serverSpeed={view.resume?.speed ?? null}
              serverPosition={view.resume?.position ?? null}
              serverSavedAt={view.resume?.savedAt ?? null}
              reportUrl={viewer.signedIn ? `/api/learning/lessons/${lesson.id}/progress` : null}
              storageKey={`lesson:${lesson.id}`}
              autoPlay={autoPlay}
              onProgress={onProgress}
              endScreen={
                <EndScreen
                  view={view}
                  onReplay={() => {
                    player.current?.seek(0);
                    player.current?.play();
                  }}
                />
              }
            />
          ) : (
            <Locked view={view} />
          )}
          <nav className="lesson-steps" aria-label="上一课和下一课">
            {prev ? (
              <Link className="lesson-steps__link" to={`/video/${prev.id}`} rel="prev">
                <span className="lesson-steps__label">上一课</span>
                <span className="lesson-steps__title">{prev.title}</span>
              </Link>
            ) : (
              <span className="lesson-steps__link is-empty">已是第一课</span>
            )}
            <span className="lesson-steps__hint">{sources ? "空格键 播放/暂停 · ← → 快退/快进 5 秒" : ""}</span>
            {next ? (
              <Link className="lesson-steps__link lesson-steps__link--next" to={`/video/${next.id}`} rel="next">
                <span className="lesson-steps__label">下一课{next.locked ? `（${next.lockLabel}）` : ""}</span>
                <span className="lesson-steps__title">{next.title}</span>
              </Link>
            ) : (
              <span className="lesson-steps__link lesson-steps__link--next is-empty">已是最后一课</span>
            )}
          </nav>
        </div>
        <LessonOutline
          outline={view.outline}
          currentId={lesson.id}
          enrolled={viewer.enrolled}
          signedIn={viewer.signedIn}
          progressOf={progressOf}
        />
      </div>

      {homework?.task ? <LessonHomeworkPanel homework={homework} signedIn={viewer.signedIn} /> : null}

      <section className="lesson-about" aria-labelledby="lesson-about-title">
        <div className="lesson-about__text">
          <h2 className="section-title" id="lesson-about-title">
            本课简介
          </h2>
          <p>{lesson.summary || "本课暂无文字简介，请直接观看视频。"}</p>
          <p className="lesson-about__tip">
            {lesson.isTrial && !viewer.enrolled
              ? "这是一节试看课，不用购买就能观看。"
              : viewer.signedIn
                ? "学习进度会自动保存，换一台电脑登录也能接着看。"
                : "未登录时，观看进度和倍速只保存在这台电脑的浏览器里；登录后可以在任何设备上接着看。"}
          </p>
          <PhoneQr path={lessonPath} />
        </div>
        <LessonCourseCard course={course} enrolled={viewer.enrolled} />
      </section>
    </Page>
  );
}

export default function VideoDetailPage() {
  const { view, homework } = useLoaderData<typeof loader>();
  return <LessonPage key={view.lesson.id} view={view} homework={homework} />;
}

/** "Continue on your phone": this lesson on the mobile site when there is one, else here. */
function PhoneQr({ path }: { path: string }) {
  const { mobileSiteUrl, publicOrigin } = useRootData();
  const href = (mobileSiteUrl ?? publicOrigin).replace(/\/+$/, "") + path;
  return (
    <QrPopover
      className="lesson-about__qr"
      label="在手机上继续看"
      caption="用手机扫码，接着看本课"
      src={`/media/qr.svg?path=${encodeURIComponent(path)}`}
      href={href}
    />
  );
}
