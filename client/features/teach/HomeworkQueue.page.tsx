/**
 * 作业批改 (/teach/homework?courseId=&lessonId=&view=waiting|mine|done&cursor=): the work of the
 * teacher's courses (every course for operators), oldest first, with who holds a claim and how
 * long each has waited. 开始批改 claims an attempt and opens the review canvas; operators can
 * give an attempt to one of the course's teachers.
 */
import { useLoaderData, useLocation, useNavigate, useRevalidator } from "react-router-dom";
import { Link } from "../../routing/link";
import { z } from "zod";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { QueueRow, useStartReview } from "./queue-row";
import { fetchQueue, queueQueryOf, queueSearch, QueueStats, type QueueView, VIEW_LABELS } from "./review-queue";

export async function loader({ env, signal, request }: PageLoaderArgs) {
  const query = queueQueryOf(new URL(request.url));
  const queue = await fetchQueue(env.api, query, signal);
  return { queue, query, meta: { title: "作业批改", noindex: true } };
}

/** A message the review page leaves when it sends the teacher back (another teacher holds the work…). */
const noticeStateSchema = z.object({ notice: z.string() });

const EMPTY_TEXT: Record<QueueView, { title: string; text: string }> = {
  waiting: { title: "没有等待批改的作业", text: "学员交来的新作业会按提交时间排在这里，最早的在最前。" },
  mine: { title: "你没有正在批改的作业", text: "在“待批改”里点“开始批改”，作业会为你保留 30 分钟。" },
  done: { title: "今天还没有批改作业", text: "今天批改或退回的作业会列在这里。" },
};

export default function HomeworkQueuePage() {
  const { queue, query } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const location = useLocation();
  const revalidator = useRevalidator();
  const { start, busy, error } = useStartReview();
  const parsedNotice = noticeStateSchema.safeParse(location.state);
  const notice = parsedNotice.success ? parsedNotice.data.notice : null;
  // The lesson filter belongs to a course: offered once one is chosen.
  const courseLessons = query.courseId ? queue.lessons.filter((l) => l.courseId === query.courseId) : [];
  const go = (change: Partial<typeof query>) =>
    navigate(`/teach/homework${queueSearch({ ...query, cursor: undefined, ...change })}`);

  return (
    <Page
      className="teach-queue"
      lead={
        queue.operator
          ? "你是运营人员，可以看到所有课程的作业，并把作业分配给任课老师。"
          : "你任教课程的学员作业，最早提交的排在最前。"
      }
    >
      {notice ? (
        <p className="teach-notice" role="status">
          {notice}
        </p>
      ) : null}
      <QueueStats stats={queue.stats} />
      <div className="queue-filters">
        <nav className="queue-views" aria-label="作业范围">
          {(Object.keys(VIEW_LABELS) as QueueView[]).map((view) => (
            <Link
              key={view}
              to={`/teach/homework${queueSearch({ ...query, cursor: undefined, view })}`}
              aria-current={query.view === view ? "page" : undefined}
            >
              {VIEW_LABELS[view]}
            </Link>
          ))}
        </nav>
        <label className="queue-filters__field">
          <span>课程</span>
          <select
            value={query.courseId ?? ""}
            onChange={(e) =>
              void go({ courseId: e.target.value ? Number(e.target.value) : undefined, lessonId: undefined })
            }
          >
            <option value="">全部课程</option>
            {queue.courses.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </select>
        </label>
        {courseLessons.length ? (
          <label className="queue-filters__field">
            <span>课时</span>
            <select
              value={query.lessonId ?? ""}
              onChange={(e) => void go({ lessonId: e.target.value ? Number(e.target.value) : undefined })}
            >
              <option value="">全部课时</option>
              {courseLessons.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.title}
                </option>
              ))}
            </select>
          </label>
        ) : query.lessonId ? (
          <span className="queue-filters__chip">
            只看一个课时
            <Link
              to={`/teach/homework${queueSearch({ ...query, cursor: undefined, lessonId: undefined })}`}
              aria-label="取消课时筛选"
            >
              ×
            </Link>
          </span>
        ) : null}
      </div>
      {queue.items.length === 0 ? (
        <EmptyState glyph="批" title={EMPTY_TEXT[query.view].title}>
          <p>{EMPTY_TEXT[query.view].text}</p>
        </EmptyState>
      ) : (
        <ol className="queue-list">
          {queue.items.map((item) => (
            <QueueRow
              key={item.attemptId}
              item={item}
              teachers={queue.teachers}
              operator={queue.operator}
              onStart={(id) => void start(id)}
              starting={busy === item.attemptId}
              error={error?.attemptId === item.attemptId ? error.message : null}
              onAssigned={() => void revalidator.revalidate()}
            />
          ))}
        </ol>
      )}
      {queue.nextCursor ? (
        <p className="queue-more">
          <Link className="button" to={`/teach/homework${queueSearch({ ...query, cursor: queue.nextCursor })}`}>
            下一页
          </Link>
        </p>
      ) : null}
    </Page>
  );
}
