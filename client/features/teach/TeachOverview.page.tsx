/** 教师工作台 (/teach): what waits, what was done today, the median wait, the oldest work and the teacher's own claims. */
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { QueueRow, useStartReview } from "./queue-row";
import { fetchQueue, QueueStats } from "./review-queue";

const OLDEST_SHOWN = 5;

export async function loader({ env, signal }: PageLoaderArgs) {
  const [waiting, mine] = await Promise.all([
    fetchQueue(env.api, { view: "waiting" }, signal),
    fetchQueue(env.api, { view: "mine" }, signal),
  ]);
  return {
    stats: waiting.stats,
    operator: waiting.operator,
    oldest: waiting.items.slice(0, OLDEST_SHOWN),
    mine: mine.items,
    meta: { title: "教师工作台", noindex: true },
  };
}

export default function TeachOverviewPage() {
  const { stats, oldest, mine, operator } = useLoaderData<typeof loader>();
  const { start, busy, error } = useStartReview();
  const rows = (items: typeof oldest) => (
    <ol className="queue-list">
      {items.map((item) => (
        <QueueRow
          key={item.attemptId}
          item={item}
          teachers={[]}
          operator={false}
          onStart={(id) => void start(id)}
          starting={busy === item.attemptId}
          error={error?.attemptId === item.attemptId ? error.message : null}
          onAssigned={() => undefined}
        />
      ))}
    </ol>
  );
  return (
    <Page className="teach-overview" lead={operator ? "所有课程的作业批改情况。" : "你任教课程的作业批改情况。"}>
      <QueueStats stats={stats} />
      {mine.length > 0 ? (
        <section>
          <h2 className="section-title">我正在批改</h2>
          {rows(mine)}
        </section>
      ) : null}
      <section>
        <h2 className="section-title">等待最久的作业</h2>
        {oldest.length === 0 ? (
          <EmptyState glyph="闲" title="作业都批完了">
            <p>学员交来新作业时，会出现在这里。</p>
          </EmptyState>
        ) : (
          <>
            {rows(oldest)}
            <p className="queue-more">
              <Link className="button button--primary" to="/teach/homework">
                进入批改队列（{stats.waiting} 份待批改）
              </Link>
            </p>
          </>
        )}
      </section>
    </Page>
  );
}
