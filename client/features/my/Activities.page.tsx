/**
 * 我的活动 (/my/activities): every activity the learner signed up for, with the sign-up's state
 * (已报名 / 已取消), the activity's own state, the check-in days and today's check-in, and the
 * way back to the activity to 打卡 or hand in its 临写作业.
 */
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import {
  activityKinds,
  activityStates,
  formatActivityRange,
  type MyActivities,
} from "../../../shared/contracts/activities";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import "./my-activities.css";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const activitiesContract = () => import("../../../shared/contracts/activities");

export async function loader({ env, signal }: PageLoaderArgs) {
  const mine = await env.api("/api/activities/mine", {
    signal,
    schema: activitiesContract().then((m) => m.myActivitiesSchema),
  });
  return { items: mine.items, meta: { title: "我的活动", noindex: true } };
}

type Item = MyActivities["items"][number];

function nextStep(item: Item): string {
  if (item.state === "cancelled") return item.activity.state === "ended" ? "活动已结束" : "可以在活动页重新报名";
  if (item.activity.state === "upcoming") return "活动开始后每天可以打卡";
  if (item.activity.state === "ended") return "活动已结束";
  return item.checkedInToday ? "今天已打卡" : "今天还没打卡";
}

export default function MyActivitiesPage() {
  const { items } = useLoaderData<typeof loader>();
  if (items.length === 0) {
    return (
      <Page title="我的活动">
        <EmptyState
          glyph="活"
          title="还没有报名活动"
          action={
            <Link className="button button--primary" to="/show/activity">
              看看正在进行的活动
            </Link>
          }
        >
          <p>报名活动后，每天可以在活动页打卡，练习时长和字记入练字日记。</p>
        </EmptyState>
      </Page>
    );
  }
  return (
    <Page title="我的活动">
      <ul className="my-activities">
        {items.map((item) => (
          <li key={item.activity.token} className="card my-activity">
            <div className="my-activity__head">
              <Link className="my-activity__title" to={`/activitys/${item.activity.token}`}>
                {item.activity.title}
              </Link>
              <span className={`activity-signup activity-signup--${item.state.replace("_", "-")}`}>
                {item.stateLabel}
              </span>
            </div>
            <p className="my-activity__meta">
              {activityKinds[item.activity.kind]} · {formatActivityRange(item.activity.startsAt, item.activity.endsAt)}{" "}
              · 活动
              {activityStates[item.activity.state]}
            </p>
            <p className="my-activity__meta">
              已打卡 <strong>{item.checkInDays}</strong> 天{item.lastCheckIn ? `，最近一次 ${item.lastCheckIn}` : ""} ·{" "}
              {nextStep(item)}
            </p>
            {item.state === "signed_up" && item.activity.state !== "ended" ? (
              <p className="my-activity__actions">
                <Link className="button button--small" to={`/activitys/${item.activity.token}`}>
                  {item.activity.state === "ongoing" && !item.checkedInToday ? "去打卡" : "查看活动"}
                </Link>
                {item.homeworkLessonId !== null && item.activity.state === "ongoing" ? (
                  <Link className="button button--small" to={`/video/${item.homeworkLessonId}#lesson-homework-title`}>
                    临写作业
                  </Link>
                ) : null}
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </Page>
  );
}
