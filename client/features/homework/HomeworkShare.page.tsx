/**
 * The share page of one work on the wall (/homework/share?id=, clean layout): the photos with
 * the teacher's drawing (on/off), level, comment, the learner's masked name and the course; the
 * JPEG poster as og:image and to download. A work taken off the wall answers 410 with a page
 * that says so; its learner can take it off from here. On a phone (where most visitors arrive
 * from a poster or a WeChat card) the call to action stays at the bottom of the screen; inside
 * WeChat's browser, which blocks downloads, the poster is shown to be saved with a long press.
 */
import { useEffect, useState } from "react";
import { data, useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { AjaxError } from "../../../shared/ajax";
import { HOMEWORK_SHARE_GONE, SCRIPT_LABELS, type ShareView } from "../../../shared/contracts/homework";
import { AppError, NOT_FOUND_MESSAGE } from "../../../shared/errors";
import { formatDate } from "../../../shared/format";
import { EmptyState } from "../../components/EmptyState";
import { FormAlert } from "../../components/form/FormAlert";
import { HomeworkPhoto } from "../../components/homework/HomeworkPhoto";
import { LevelSeal } from "../../components/homework/LevelSeal";
import { ModelCharacter } from "../../components/homework/ModelCharacter";
import { teacherName } from "../../components/homework/teacher-name";
import type { PageLoaderArgs } from "../../routing/nav-context";
import "./homework-wall.css";
import { useMutation } from "../../lib/mutation";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const homeworkContract = () => import("../../../shared/contracts/homework");

export async function loader({ env, signal, request }: PageLoaderArgs) {
  const id = new URL(request.url).searchParams.get("id") ?? "";
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new AppError(404, NOT_FOUND_MESSAGE);
  try {
    const share = await env.api(`/api/homework/share/${id}`, {
      signal,
      schema: homeworkContract().then((m) => m.shareSchema),
    });
    const script = SCRIPT_LABELS[share.script];
    return {
      share,
      meta: {
        title: `${share.learner}的${script}作业 · ${share.courseTitle}`,
        description: share.review.comment
          ? `老师评语：${share.review.comment}`
          : `${share.learner}在「${share.courseTitle}」交的${script}作业，获老师评为“${share.review.levelLabel ?? "优"}”。`,
        image: share.posterUrl,
        squareImage: share.squareUrl,
        type: "article",
        canonicalSearch: `?id=${id}`,
      },
    };
  } catch (err) {
    if (err instanceof AjaxError && err.statusCode === 410) {
      return data({ share: null, meta: { title: "作品已撤下", noindex: true } }, { status: 410 });
    }
    throw err;
  }
}

function TakeDown({ submissionId, onDone }: { submissionId: string; onDone: () => void }) {
  const { busy, problem, send } = useMutation();
  async function takeDown() {
    if (!window.confirm("从作业墙撤下后，这个分享页将无法访问。确定撤下吗？")) return;
    await send(`/api/homework/submissions/${submissionId}`, {
      method: "PATCH",
      body: { showOnWall: false },
      schema: homeworkContract().then((m) => m.submissionSchema),
      onSuccess: onDone,
    });
  }
  return (
    <div className="share-owner">
      <p>这是你的作品。</p>
      <button type="button" className="button" disabled={busy} onClick={() => void takeDown()}>
        {busy ? "正在撤下…" : "从作业墙撤下"}
      </button>
      <FormAlert problem={problem} />
    </div>
  );
}

function Gone({ byOwner }: { byOwner: boolean }) {
  return (
    <EmptyState
      glyph="撤"
      title="作品已撤下"
      action={
        <Link className="button button--primary" to="/homework">
          去作业墙看看
        </Link>
      }
    >
      <p>{byOwner ? "已从作业墙撤下，这个分享页不再对外展示。" : HOMEWORK_SHARE_GONE}</p>
    </EmptyState>
  );
}

/** True inside WeChat's in-app browser (its user agent says MicroMessenger), after hydration. */
function useInWeChat(): boolean {
  const [inWeChat, setInWeChat] = useState(false);
  useEffect(() => {
    setInWeChat(/MicroMessenger/i.test(navigator.userAgent));
  }, []);
  return inWeChat;
}

function ShareWork({ share }: { share: ShareView }) {
  const [showMarks, setShowMarks] = useState(true);
  const [takenDown, setTakenDown] = useState(false);
  const [posterShown, setPosterShown] = useState(false);
  const inWeChat = useInWeChat();
  if (takenDown) return <Gone byOwner />;
  const { review } = share;
  const script = SCRIPT_LABELS[share.script];
  return (
    <article className="share">
      <header className="share__head">
        <div>
          <h1 className="share__title">
            {share.learner}的{script}作业
          </h1>
          <p className="share__where">
            <Link to={`/course/${share.courseId}`}>{share.courseTitle}</Link> · {share.lessonTitle}
          </p>
        </div>
        {review.level ? <LevelSeal level={review.level} /> : null}
      </header>

      <label className="share__toggle">
        <input type="checkbox" checked={showMarks} onChange={(e) => setShowMarks(e.target.checked)} />
        显示老师批注
      </label>
      <div className="share__photos">
        {share.photos.map((photo, i) => (
          <HomeworkPhoto
            key={photo.id}
            photo={photo}
            alt={`${share.learner}的作业照片（第 ${i + 1} 张）`}
            drawing={review.drawings.find((d) => d.photo === i) ?? null}
            showMarks={showMarks}
          />
        ))}
      </div>

      <section className="share__review card" aria-label="老师点评">
        {review.comment ? <p className="share__comment">{review.comment}</p> : null}
        <p className="share__by">
          {teacherName(review.teacher)} · {formatDate(review.reviewedAt)} 批改
        </p>
      </section>

      {share.characters ? (
        <section className="share__models" aria-label="本课范字">
          <h2>本课范字</h2>
          <div>
            {Array.from(share.characters).map((c, i) => (
              <ModelCharacter key={i} character={c} size={64} />
            ))}
          </div>
        </section>
      ) : null}

      <div className="share__cta">
        <Link className="button button--primary" to={`/course/${share.courseId}`}>
          我也要学这门课
        </Link>
        <Link className="button" to="/homework">
          更多作品
        </Link>
      </div>

      <div className="share__actions">
        {inWeChat ? (
          <button type="button" className="button button--primary" onClick={() => setPosterShown(true)}>
            保存海报
          </button>
        ) : (
          <a className="button button--primary" href={share.posterUrl} download={`作业海报-${share.shareId}.jpg`}>
            下载海报
          </a>
        )}
        <Link className="button share__also-below" to="/homework">
          看更多优秀作业
        </Link>
        <Link className="button share__also-below" to={`/course/${share.courseId}`}>
          我也想学
        </Link>
      </div>
      {inWeChat ? (
        <p className="share__wechat-hint">
          在微信里无法直接下载：{posterShown ? "长按下方海报，选择“保存图片”" : "点“保存海报”后长按图片保存"}
          ；分享给朋友请点右上角「···」。
        </p>
      ) : null}
      {inWeChat && posterShown ? (
        <img className="share__poster" src={share.posterUrl} alt={`${share.learner}的作业海报`} />
      ) : null}
      {share.ownSubmissionId ? (
        <TakeDown submissionId={share.ownSubmissionId} onDone={() => setTakenDown(true)} />
      ) : null}
    </article>
  );
}

export default function HomeworkSharePage() {
  const { share } = useLoaderData<typeof loader>();
  return share ? <ShareWork key={share.shareId} share={share} /> : <Gone byOwner={false} />;
}
