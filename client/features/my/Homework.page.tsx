/**
 * 我的作业 (/my/homework?state=&courseId=): every piece of the learner's homework with its state,
 * course and lesson, filtered by state (with counts) and course in the URL, more on demand.
 * Each opens the review viewer; returned work can be handed in again from there.
 */
import { useState } from "react";
import { useLoaderData, useNavigate, useRevalidator } from "react-router-dom";
import { GetForm } from "../../routing/get-form";
import { Link } from "../../routing/link";
import {
  ATTEMPT_STATE_LABELS,
  ATTEMPT_STATES,
  type AttemptState,
  type HomeworkListItem,
  type HomeworkSubmission,
  type MyHomework,
} from "../../../shared/contracts/homework";
import { formatDateTime } from "../../../shared/format";
import { EmptyState } from "../../components/EmptyState";
import { FormAlert } from "../../components/form/FormAlert";
import { LevelSeal } from "../../components/homework/LevelSeal";
import { LazyReviewDialog } from "../../components/homework/LazyReviewDialog";
import { LazySubmitDialog } from "../../components/homework/LazySubmitDialog";
import { Page } from "../../components/Page";
import { browserApi } from "../../lib/api";
import { describeProblem, type Problem } from "../../lib/problem";
import type { PageLoaderArgs } from "../../routing/nav-context";
import "../../components/commerce/commerce.css";
import "./homework.css";
import { isIdText } from "../../../shared/ids";

export interface HomeworkFilter {
  state: AttemptState | null;
  courseId: number | null;
}

/** The filter from the page's query; anything unknown means "all". */
export function parseHomeworkFilter(params: URLSearchParams): HomeworkFilter {
  const rawState = params.get("state");
  const state = (ATTEMPT_STATES as readonly string[]).includes(rawState ?? "") ? (rawState as AttemptState) : null;
  const rawCourse = params.get("courseId") ?? "";
  const courseId = isIdText(rawCourse) ? Number(rawCourse) : null;
  return { state, courseId };
}

/** The query string for a filter (and a cursor), both for this page and for the API. */
export function homeworkQuery(filter: HomeworkFilter, cursor?: string | null): string {
  const params = new URLSearchParams();
  if (filter.state) params.set("state", filter.state);
  if (filter.courseId) params.set("courseId", String(filter.courseId));
  if (cursor) params.set("cursor", cursor);
  const query = params.toString();
  return query ? `?${query}` : "";
}

export async function loader({ env, signal, request }: PageLoaderArgs) {
  const filter = parseHomeworkFilter(new URL(request.url).searchParams);
  const mine = await env.api(`/api/homework/mine${homeworkQuery(filter)}`, {
    signal,
    schema: import("../../../shared/contracts/homework").then((m) => m.myHomeworkSchema),
  });
  return {
    mine,
    filter,
    meta: { title: "我的作业", description: "我交过的作业、老师的批改与评语，以及退回后重新提交。", noindex: true },
  };
}

function HomeworkRow({ item, onOpen }: { item: HomeworkListItem; onOpen: () => void }) {
  return (
    <li className="my-hw" data-state={item.state}>
      <div className="my-hw__thumb">
        {item.thumbUrl ? <img src={item.thumbUrl} alt="" loading="lazy" /> : <span aria-hidden="true">作</span>}
      </div>
      <div className="my-hw__body">
        <p className="my-hw__title">{item.taskTitle}</p>
        <p className="my-hw__where">
          <Link to={`/course/${item.courseId}`}>{item.courseTitle}</Link> · {item.lessonTitle}
        </p>
        <p className="my-hw__meta">
          <span className={`hw-state hw-state--${item.state}`}>{item.stateLabel}</span>
          <span>
            第 {item.attempts} 次提交 · {formatDateTime(item.updatedAt)}
          </span>
        </p>
      </div>
      {item.level ? <LevelSeal level={item.level} size="small" /> : null}
      <button type="button" className="button button--small" onClick={onOpen}>
        {item.state === "reviewed" ? "查看批改" : item.state === "returned" ? "查看并重交" : "查看"}
        <span className="visually-hidden">：{item.taskTitle}</span>
      </button>
    </li>
  );
}

/** The list with its "load more"; keyed by the filter so a new filter starts afresh. */
function HomeworkList({ first, filter }: { first: MyHomework; filter: HomeworkFilter }) {
  const revalidator = useRevalidator();
  const [more, setMore] = useState<HomeworkListItem[]>([]);
  const [cursor, setCursor] = useState(first.nextCursor);
  const [loading, setLoading] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [viewing, setViewing] = useState<HomeworkSubmission | null>(null);
  const [resubmitting, setResubmitting] = useState<HomeworkSubmission | null>(null);
  const [opening, setOpening] = useState<string | null>(null);

  async function loadMore() {
    if (!cursor) return;
    setLoading(true);
    setProblem(null);
    try {
      const page = await browserApi(`/api/homework/mine${homeworkQuery(filter, cursor)}`, {
        schema: import("../../../shared/contracts/homework").then((m) => m.myHomeworkSchema),
      });
      setMore((prev) => [...prev, ...page.items]);
      setCursor(page.nextCursor);
    } catch (err) {
      setProblem(describeProblem(err));
    } finally {
      setLoading(false);
    }
  }

  async function open(id: string) {
    setOpening(id);
    setProblem(null);
    try {
      setViewing(
        await browserApi(`/api/homework/submissions/${id}`, {
          schema: import("../../../shared/contracts/homework").then((m) => m.submissionSchema),
        }),
      );
    } catch (err) {
      setProblem(describeProblem(err));
    } finally {
      setOpening(null);
    }
  }

  const items = [...first.items, ...more];
  return (
    <>
      <ol className="my-hw-list" aria-busy={opening !== null}>
        {items.map((item) => (
          <HomeworkRow key={item.id} item={item} onOpen={() => void open(item.id)} />
        ))}
      </ol>
      <FormAlert problem={problem} />
      {cursor ? (
        <div className="my-hw-more">
          <button type="button" className="button" disabled={loading} onClick={() => void loadMore()}>
            {loading ? "加载中…" : "加载更多"}
          </button>
        </div>
      ) : items.length > 10 ? (
        <p className="my-hw-more">没有更多了</p>
      ) : null}
      <LazyReviewDialog
        submission={viewing}
        onClose={() => setViewing(null)}
        onResubmit={
          viewing?.resubmit.allowed
            ? () => {
                setResubmitting(viewing);
                setViewing(null);
              }
            : undefined
        }
      />
      {resubmitting ? (
        <LazySubmitDialog
          open
          onClose={() => setResubmitting(null)}
          task={resubmitting.task}
          attemptNumber={resubmitting.attempts.length + 1}
          onSubmitted={() => {
            setResubmitting(null);
            void revalidator.revalidate();
          }}
        />
      ) : null}
    </>
  );
}

export default function MyHomeworkPage() {
  const { mine, filter } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const total = ATTEMPT_STATES.reduce((sum, state) => sum + (mine.counts[state] ?? 0), 0);
  const tabs: { state: AttemptState | null; label: string; count: number }[] = [
    { state: null, label: "全部", count: total },
    ...ATTEMPT_STATES.map((state) => ({ state, label: ATTEMPT_STATE_LABELS[state], count: mine.counts[state] ?? 0 })),
  ];
  const filtered = filter.state !== null || filter.courseId !== null;

  return (
    <Page title="我的作业">
      <ul className="state-tabs" aria-label="作业状态">
        {tabs.map((tab) => (
          <li key={tab.state ?? "all"}>
            <Link
              to={`/my/homework${homeworkQuery({ ...filter, state: tab.state })}`}
              aria-current={tab.state === filter.state ? "page" : undefined}
            >
              {tab.label}
              <span className="state-tabs__count">{tab.count}</span>
            </Link>
          </li>
        ))}
      </ul>
      {mine.courses.length > 0 ? (
        <GetForm action="/my/homework" className="my-hw-filter">
          {filter.state ? <input type="hidden" name="state" value={filter.state} /> : null}
          <label htmlFor="my-hw-course">课程</label>
          <select
            id="my-hw-course"
            name="courseId"
            value={filter.courseId ?? ""}
            onChange={(event) =>
              void navigate(
                `/my/homework${homeworkQuery({ ...filter, courseId: event.target.value ? Number(event.target.value) : null })}`,
              )
            }
          >
            <option value="">全部课程</option>
            {mine.courses.map((course) => (
              <option key={course.id} value={course.id}>
                {course.title}
              </option>
            ))}
          </select>
          <noscript>
            <button type="submit" className="button button--small">
              筛选
            </button>
          </noscript>
        </GetForm>
      ) : null}
      {mine.items.length === 0 ? (
        <EmptyState
          glyph="作"
          title={filtered ? "没有符合条件的作业" : "还没有交过作业"}
          action={
            filtered ? (
              <Link className="button" to="/my/homework">
                查看全部作业
              </Link>
            ) : (
              <Link className="button button--primary" to="/product/list">
                去选课程
              </Link>
            )
          }
        >
          <p>看完一节课，在课程视频下方的「本课作业」里拍照上传，老师会圈点批注并写下评语。</p>
        </EmptyState>
      ) : (
        <HomeworkList key={homeworkQuery(filter)} first={mine} filter={filter} />
      )}
    </Page>
  );
}
