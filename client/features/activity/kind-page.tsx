/**
 * The pages of one kind (/activitys/bmyx and its siblings), which show that kind's current
 * activity.
 */
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import {
  type ActivityDetail,
  type ActivityKindKey,
  type ActivitySummary,
  type Participation,
  activityKinds,
} from "../../../shared/contracts/activities";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { ActivityArticle, activityMeta, loadParticipation } from "./activity-article";
import { ActivityCard } from "./activity-card";
import "./activity.css";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const activitiesContract = () => import("../../../shared/contracts/activities");

interface KindPageData {
  kind: ActivityKindKey;
  activity: ActivityDetail | null;
  participation: Participation | null;
  others: ActivitySummary[];
}

/** What each kind's page says when there is no activity of it (yet). */
const kindEmpty: Record<Exclude<ActivityKindKey, "general">, { glyph: string; text: string }> = {
  bmyx: { glyph: "研", text: "笔墨研习围绕一位书家或一部碑帖展开：读帖、临写，临写作业交老师批改。" },
  daycourse: { glyph: "日", text: "每日一课每天几分钟：讲一个字、一个笔画或一处结构，适合利用零碎时间坚持练习。" },
  reading: { glyph: "读", text: "共读是和同学一起按计划读一本书：每天一段，读完在活动页打卡。" },
  travel_note: {
    glyph: "游",
    text: "游记是跟着老师寻访碑林、博物馆与山川题刻的活动，行程中每天可以打卡记下临写的字。",
  },
};

/** The loader of a kind's page: its current activity (running first) and the others of the kind. */
export function kindLoader(kind: Exclude<ActivityKindKey, "general">) {
  return async function loader({ env, signal }: PageLoaderArgs) {
    const { items } = await env.api(`/api/activities?kind=${kind}`, {
      signal,
      schema: activitiesContract().then((m) => m.activityListSchema),
    });
    const featured = items[0];
    const activity = featured
      ? await env.api(`/api/activities/${encodeURIComponent(featured.token)}`, {
          signal,
          schema: activitiesContract().then((m) => m.activityDetailSchema),
        })
      : null;
    const participation = activity ? await loadParticipation(env, activity.token, signal) : null;
    const label = activityKinds[kind];
    // Nothing open (running or coming) of this kind: the page is kept out of search engines.
    const open = items.some((a) => a.state !== "ended");
    return {
      kind,
      activity,
      participation,
      others: items.slice(1),
      meta: {
        ...(activity
          ? { ...activityMeta(activity), title: label }
          : { title: label, description: kindEmpty[kind].text }),
        ...(open ? {} : { noindex: true }),
      },
    } satisfies KindPageData & { meta: unknown };
  };
}

export function KindPage() {
  const { kind, activity, participation, others } = useLoaderData<ReturnType<typeof kindLoader>>();
  const label = activityKinds[kind];
  if (!activity) {
    const empty = kindEmpty[kind as Exclude<ActivityKindKey, "general">];
    return (
      <Page>
        <EmptyState
          glyph={empty.glyph}
          title={`${label}暂时没有开放的活动`}
          action={
            <Link className="button" to="/show/activity">
              看看其他活动
            </Link>
          }
        >
          <p>{empty.text}</p>
          <p>新一期开放后会在这里公布。</p>
        </EmptyState>
      </Page>
    );
  }
  return (
    <Page title={activity.title}>
      <ActivityArticle activity={activity} participation={participation} />
      {others.length > 0 ? (
        <section className="activity-more" aria-labelledby="activity-more">
          <h2 id="activity-more" className="section-title">
            更多{label}
          </h2>
          <ul className="catalogue-grid">
            {others.map((a) => (
              <li key={a.token}>
                <ActivityCard activity={a} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </Page>
  );
}
