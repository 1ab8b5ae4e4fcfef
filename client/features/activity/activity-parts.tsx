/**
 * What the activity pages share: the card in lists, the landing content (state, dates, body,
 * the linked course), the page metadata with schema.org Event data, and the pages of one kind
 * (/activitys/bmyx and its siblings), which show that kind's current activity.
 */
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import {
  type ActivityDetail,
  type ActivityKindKey,
  type ActivitySummary,
  type Participation,
  activityKinds,
  activityStates,
  formatActivityRange,
} from "../../../shared/contracts/activities";
import { type CoverTone, coverSizes, coverUrl } from "../../../shared/media";
import { CourseCard } from "../../components/cards/CatalogueCards";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import { LazyImage } from "../../lib/lazy-image";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { ActivityJoin } from "./ActivityJoin";
import "./activity.css";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const activitiesContract = () => import("../../../shared/contracts/activities");

const kindTones: Record<ActivityKindKey, CoverTone> = {
  general: "red",
  bmyx: "ink",
  daycourse: "jade",
  reading: "gold",
  travel_note: "indigo",
};

export function activityCover(activity: Pick<ActivitySummary, "coverChar" | "kind">): string {
  return coverUrl(activity.coverChar, kindTones[activity.kind], "landscape");
}

export function StateBadge({ state }: { state: ActivitySummary["state"] }) {
  return <span className={`activity-state activity-state--${state}`}>{activityStates[state]}</span>;
}

export function ActivityCard({ activity }: { activity: ActivitySummary }) {
  const size = coverSizes.landscape;
  return (
    <article className={`card catalogue-card activity-card activity-card--${activity.state}`}>
      <Link to={`/activitys/${activity.token}`} className="catalogue-card__link">
        <span className="catalogue-card__cover">
          <LazyImage
            src={activityCover(activity)}
            alt={`${activity.title}封面`}
            width={size.width}
            height={size.height}
          />
          <span className="catalogue-card__badge">{activityKinds[activity.kind]}</span>
        </span>
        <h3 className="catalogue-card__title">{activity.title}</h3>
      </Link>
      <p className="activity-card__summary">{activity.summary}</p>
      <p className="catalogue-card__foot">
        <span className="activity-card__dates">{formatActivityRange(activity.startsAt, activity.endsAt, "short")}</span>
        <StateBadge state={activity.state} />
      </p>
    </article>
  );
}

/** schema.org Event: online through the landing page; travel notes also meet in person. */
export function activityMeta(activity: ActivityDetail) {
  const image = activityCover(activity);
  return {
    title: activity.title,
    description: activity.summary || `${activityKinds[activity.kind]}：${activity.title}`,
    image,
    jsonLd: {
      "@type": "Event",
      name: activity.title,
      description: activity.summary,
      startDate: activity.startsAt,
      endDate: activity.endsAt,
      eventStatus: "https://schema.org/EventScheduled",
      eventAttendanceMode:
        activity.kind === "travel_note"
          ? "https://schema.org/MixedEventAttendanceMode"
          : "https://schema.org/OnlineEventAttendanceMode",
      location: { "@type": "VirtualLocation", url: activity.url },
      image: new URL(image, activity.url).toString(),
      url: activity.url,
      organizer: { "@type": "Organization", url: new URL(activity.url).origin },
      isAccessibleForFree: true,
    },
  };
}

/**
 * The viewer's part in an activity (signed in or not); null when it could not be loaded, and the
 * landing content is shown without the 参加活动 panel.
 */
export function loadParticipation(env: PageLoaderArgs["env"], token: string, signal: AbortSignal) {
  return env
    .api(`/api/activities/${encodeURIComponent(token)}/me`, {
      signal,
      schema: activitiesContract().then((m) => m.participationSchema),
    })
    .catch((): Participation | null => null);
}

/** The landing content of one activity, with 参加活动 when the viewer's part is known. */
export function ActivityArticle({
  activity,
  participation,
}: {
  activity: ActivityDetail;
  participation: Participation | null;
}) {
  const size = coverSizes.landscape;
  return (
    <article className="activity">
      <header className="activity__hero">
        <div className="activity__cover">
          <LazyImage
            src={activityCover(activity)}
            alt={`${activity.title}封面`}
            width={size.width}
            height={size.height}
          />
        </div>
        <div className="activity__intro">
          <p className="activity__kind">
            {activityKinds[activity.kind]} <StateBadge state={activity.state} />
          </p>
          <p className="activity__dates">
            <span className="activity__label">活动时间</span>
            {formatActivityRange(activity.startsAt, activity.endsAt)}
          </p>
          <p className="activity__summary">{activity.summary}</p>
          <div className="activity__actions">
            {activity.course ? (
              <Link className="button button--primary" to={`/course/${activity.course.id}`}>
                {activity.state === "ended" ? "看看配套课程" : "去学配套课程"}
              </Link>
            ) : null}
            <Link className="button" to={`/activitys/${activity.token}/share`}>
              分享活动
            </Link>
          </div>
          {activity.state === "ended" ? (
            <p className="activity__ended">这个活动已经结束，内容留作回顾；新的活动会在“活动”页公布。</p>
          ) : null}
        </div>
      </header>

      {participation ? <ActivityJoin key={activity.token} token={activity.token} initial={participation} /> : null}

      {activity.body.length > 0 ? (
        <div className="activity__body">
          {activity.body.map((section) => (
            <section key={section.heading} className="card activity__section">
              <h2>{section.heading}</h2>
              <p>{section.text}</p>
            </section>
          ))}
        </div>
      ) : null}

      {activity.course ? (
        <section className="activity__course" aria-labelledby="activity-course">
          <h2 id="activity-course">配套课程</h2>
          <div className="activity__course-card">
            <CourseCard course={activity.course} />
          </div>
        </section>
      ) : null}
    </article>
  );
}

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
