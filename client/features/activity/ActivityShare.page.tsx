/**
 * The share page of an activity (clean layout): the activity's card, its link with a copy
 * button, and a QR code of the landing page (an SVG the activities API draws).
 */
import { useEffect, useRef, useState } from "react";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { activityKinds, formatActivityRange } from "../../../shared/contracts/activities";
import { coverSizes } from "../../../shared/media";
import { LazyImage } from "../../lib/lazy-image";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { StateBadge, activityCover } from "./activity-card";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const activitiesContract = () => import("../../../shared/contracts/activities");

const QR_SIZE = 200;

export async function loader({ env, params, signal }: PageLoaderArgs) {
  const activity = await env.api(`/api/activities/${encodeURIComponent(params.token ?? "")}`, {
    signal,
    schema: activitiesContract().then((m) => m.activityDetailSchema),
  });
  return {
    activity,
    meta: {
      title: `分享：${activity.title}`,
      description: `${activity.summary} 扫码或打开链接参加。`,
      image: activityCover(activity),
      // The landing page is the one to index; this is its share card.
      noindex: true,
    },
  };
}

type CopyState = "idle" | "copied" | "failed";

export default function ActivitySharePage() {
  const { activity } = useLoaderData<typeof loader>();
  const [copy, setCopy] = useState<CopyState>("idle");
  const linkRef = useRef<HTMLInputElement>(null);
  const size = coverSizes.landscape;

  useEffect(() => {
    if (copy === "idle") return;
    const timer = setTimeout(() => setCopy("idle"), 3000);
    return () => clearTimeout(timer);
  }, [copy]);

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(activity.url);
      setCopy("copied");
    } catch {
      // No clipboard permission: select the text so the old copy command (or the reader) can take it.
      const input = linkRef.current;
      input?.select();
      setCopy(input && document.execCommand("copy") ? "copied" : "failed");
    }
  };

  return (
    <article className="share-card">
      <header className="share-card__head">
        <div className="share-card__cover">
          <LazyImage
            src={activityCover(activity)}
            alt={`${activity.title}封面`}
            width={size.width}
            height={size.height}
          />
        </div>
        <div>
          <p className="activity__kind">
            {activityKinds[activity.kind]} <StateBadge state={activity.state} />
          </p>
          <h1 className="share-card__title">{activity.title}</h1>
          <p className="share-card__dates">{formatActivityRange(activity.startsAt, activity.endsAt)}</p>
          <p className="share-card__summary">{activity.summary}</p>
        </div>
      </header>
      <div className="share-card__body">
        <div className="share-card__share">
          <figure className="share-card__qr">
            <LazyImage
              src={`/api/activities/${encodeURIComponent(activity.token)}/qr.svg`}
              alt={`${activity.title}活动页二维码`}
              width={QR_SIZE}
              height={QR_SIZE}
            />
            <figcaption>微信扫一扫，打开活动页</figcaption>
          </figure>
          <div className="share-card__link">
            <label htmlFor="share-link">活动链接</label>
            <div className="share-card__link-row">
              <input id="share-link" ref={linkRef} readOnly value={activity.url} onFocus={(e) => e.target.select()} />
              <button type="button" className="button button--primary" onClick={() => void copyLink()}>
                复制链接
              </button>
            </div>
            <p className="share-card__copy" role="status">
              {copy === "copied"
                ? "链接已复制，发给朋友吧。"
                : copy === "failed"
                  ? "没能自动复制，请选中链接手动复制。"
                  : ""}
            </p>
            <Link className="text-link" to={`/activitys/${activity.token}`}>
              打开活动页
            </Link>
          </div>
        </div>
      </div>
    </article>
  );
}
