/** The homework queue: its address in the URL, fetching it, claiming an attempt, its stats strip. */
import {
  claimResultSchema,
  type ClaimResult,
  type Queue,
  queueQuerySchema,
  queueSchema,
} from "../../../shared/contracts/homework";
import type { Ajax } from "../../../shared/ajax";
import { browserApi } from "../../lib/api";
import { formatMedianWait } from "./teach-format";

export type QueueQuery = ReturnType<typeof queueQuerySchema.parse>;
export type QueueView = QueueQuery["view"];

export const VIEW_LABELS: Record<QueueView, string> = { waiting: "待批改", mine: "我领取的", done: "今天已批" };

/** The queue's filters from a page URL; a value that does not fit is dropped, not an error. */
export function queueQueryOf(url: URL): QueueQuery {
  const raw = Object.fromEntries(url.searchParams);
  const query: Record<string, string> = {};
  for (const key of ["courseId", "lessonId", "view", "cursor"] as const) {
    const value = raw[key];
    if (value === undefined || value === "") continue;
    if (queueQuerySchema.pick({ [key]: true } as { [K in typeof key]: true }).safeParse({ [key]: value }).success)
      query[key] = value;
  }
  return queueQuerySchema.parse(query);
}

/** The query string of the queue (for the API and for the page's own links), defaults left out. */
export function queueSearch(query: Partial<QueueQuery>): string {
  const params = new URLSearchParams();
  if (query.courseId) params.set("courseId", String(query.courseId));
  if (query.lessonId) params.set("lessonId", String(query.lessonId));
  if (query.view && query.view !== "waiting") params.set("view", query.view);
  if (query.cursor) params.set("cursor", query.cursor);
  const s = params.toString();
  return s ? `?${s}` : "";
}

export function fetchQueue(api: Ajax, query: Partial<QueueQuery>, signal?: AbortSignal): Promise<Queue> {
  const search = queueSearch(query);
  // The API defaults to the waiting view as well; it is named so that the request says it.
  const withView = search.includes("view=") ? search : `${search ? `${search}&` : "?"}view=waiting`;
  return api(`/api/teach/homework/queue${withView}`, { signal, schema: queueSchema });
}

/** Claims an attempt for the signed-in teacher (again, for the one who holds it: the claim is extended). */
export function claimAttempt(attemptId: string): Promise<ClaimResult> {
  return browserApi(`/api/teach/homework/attempts/${encodeURIComponent(attemptId)}/claim`, {
    method: "POST",
    body: {},
    schema: claimResultSchema,
  });
}

export function reviewHref(attemptId: string): string {
  return `/teach/homework/review?attempt=${encodeURIComponent(attemptId)}`;
}

export function QueueStats({ stats }: { stats: Queue["stats"] }) {
  return (
    <dl className="teach-stats" aria-label="批改概况">
      <div className="teach-stats__item">
        <dt>待批改</dt>
        <dd>
          {stats.waiting}
          <small> 份</small>
        </dd>
      </div>
      <div className="teach-stats__item">
        <dt>今天已批</dt>
        <dd>
          {stats.doneToday}
          <small> 份</small>
        </dd>
      </div>
      <div className="teach-stats__item">
        <dt>等待时间中位数</dt>
        <dd>{formatMedianWait(stats.medianWaitMinutes)}</dd>
      </div>
    </dl>
  );
}
