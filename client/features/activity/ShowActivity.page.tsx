/** Every activity as a card: the running ones, then those coming up, then past ones to look back on. */
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import type { ActivityState } from "../../../shared/contracts/activities";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { ActivityCard } from "./activity-card";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const activitiesContract = () => import("../../../shared/contracts/activities");

export async function loader({ env, signal }: PageLoaderArgs) {
  const list = await env.api("/api/activities", {
    signal,
    schema: activitiesContract().then((m) => m.activityListSchema),
  });
  const running = list.items.filter((a) => a.state === "ongoing").length;
  return {
    list,
    meta: {
      title: "活动",
      description: running
        ? `正在进行的活动 ${running} 个：临帖打卡、笔墨研习、每日一课、共读与访碑游记。`
        : "临帖打卡、笔墨研习、每日一课、共读与访碑游记：墨池课堂的学习活动。",
    },
  };
}

const sections: Array<{ state: ActivityState; title: string }> = [
  { state: "ongoing", title: "正在进行" },
  { state: "upcoming", title: "即将开始" },
  { state: "ended", title: "往期回顾" },
];

export default function ShowActivityPage() {
  const { list } = useLoaderData<typeof loader>();
  if (list.items.length === 0) {
    return (
      <Page>
        <EmptyState
          glyph="展"
          title="目前还没有活动"
          action={
            <Link className="button" to="/calmness">
              先去静心习字
            </Link>
          }
        >
          <p>临帖打卡、笔墨研习、共读等活动开放后会在这里公布。</p>
        </EmptyState>
      </Page>
    );
  }
  return (
    <Page lead="和同学一起临帖、读书、访碑：参加活动，坚持练习还有金币与笔山奖励。">
      {sections.map(({ state, title }) => {
        const items = list.items.filter((a) => a.state === state);
        if (items.length === 0) return null;
        return (
          <section key={state} className="activity-list" aria-labelledby={`activities-${state}`}>
            <h2 className="section-title" id={`activities-${state}`}>
              {title}
              <span className="activity-list__count">{items.length} 个</span>
            </h2>
            <ul className="catalogue-grid">
              {items.map((activity) => (
                <li key={activity.token}>
                  <ActivityCard activity={activity} />
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </Page>
  );
}
