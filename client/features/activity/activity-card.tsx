/**
 * An activity in a list: its card, cover and state badge.
 */
import { Link } from "../../routing/link";
import {
  type ActivityKindKey,
  type ActivitySummary,
  activityKinds,
  activityStates,
  formatActivityRange,
} from "../../../shared/contracts/activities";
import { type CoverTone, coverSizes, coverUrl } from "../../../shared/media";
import { LazyImage } from "../../lib/lazy-image";
import "./activity.css";

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
