/**
 * The landing content of one activity (state, dates, body, the linked course) and its page
 * metadata with schema.org Event data.
 */
import { Link } from "../../routing/link";
import {
  type ActivityDetail,
  type Participation,
  activityKinds,
  formatActivityRange,
} from "../../../shared/contracts/activities";
import { coverSizes } from "../../../shared/media";
import { CourseCard } from "../../components/cards/CatalogueCards";
import { LazyImage } from "../../lib/lazy-image";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { ActivityJoin } from "./ActivityJoin";
import { StateBadge, activityCover } from "./activity-card";
import "./activity.css";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const activitiesContract = () => import("../../../shared/contracts/activities");

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
