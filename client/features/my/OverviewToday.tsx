/**
 * The overview's "today" part: the daily check-in, the next live lesson, homework to hand in,
 * and a small chart of the minutes studied per week.
 */
import { Link } from "../../routing/link";
import type { Overview } from "../../../shared/contracts/me";
import { formatMonthDay, formatMonthDayTime } from "../../../shared/format";
import { AccountSection } from "./account-parts";

const CHART = { width: 560, height: 160, top: 18, bottom: 24, gap: 14 };

/** Bars of minutes per week (oldest first); the current week in seal red. */
export function StudyChart({ weeks }: { weeks: Overview["studyWeeks"] }) {
  const max = Math.max(30, ...weeks.map((w) => w.minutes));
  const inner = CHART.height - CHART.top - CHART.bottom;
  const slot = CHART.width / Math.max(1, weeks.length);
  const barWidth = slot - CHART.gap;
  const total = weeks.reduce((sum, w) => sum + w.minutes, 0);
  const summary = weeks.map((w) => `${formatMonthDay(`${w.weekStart}T00:00:00+08:00`)}起 ${w.minutes} 分钟`).join("，");
  return (
    <figure className="study-chart">
      <svg
        viewBox={`0 0 ${CHART.width} ${CHART.height}`}
        role="img"
        aria-label={`近 ${weeks.length} 周每周学习时长：${summary}`}
      >
        <line
          x1="0"
          x2={CHART.width}
          y1={CHART.height - CHART.bottom}
          y2={CHART.height - CHART.bottom}
          className="study-chart__axis"
        />
        {weeks.map((w, i) => {
          const h = Math.round((w.minutes / max) * inner);
          const x = i * slot + CHART.gap / 2;
          const y = CHART.height - CHART.bottom - h;
          const current = i === weeks.length - 1;
          return (
            <g key={w.weekStart}>
              <rect
                x={x}
                y={y}
                width={barWidth}
                height={Math.max(h, w.minutes > 0 ? 2 : 0)}
                className={current ? "study-chart__bar study-chart__bar--current" : "study-chart__bar"}
              />
              <text x={x + barWidth / 2} y={y - 5} textAnchor="middle" className="study-chart__value">
                {w.minutes}
              </text>
              <text x={x + barWidth / 2} y={CHART.height - 6} textAnchor="middle" className="study-chart__label">
                {current ? "本周" : formatMonthDay(`${w.weekStart}T00:00:00+08:00`)}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption className="study-chart__caption">
        {`近 ${weeks.length} 周共学习 ${total} 分钟（看课和看回放的时长）`}
      </figcaption>
    </figure>
  );
}

export function OverviewToday({ overview }: { overview: Overview | null }) {
  if (overview === null) {
    return <AccountSection id="today" title="今天" lead="今日签到、作业和直播暂时没能加载，请稍后刷新再试。" />;
  }
  const { checkIn, homework, nextLive, studyWeeks } = overview;
  return (
    <>
      <div className="today-grid">
        <section className="card today-card" aria-labelledby="today-check-in">
          <h2 className="today-card__title" id="today-check-in">
            今日签到
          </h2>
          <p className="today-card__value">{checkIn.done ? "已签到" : "还没签到"}</p>
          <Link className="text-link" to="/my/exchange">
            {checkIn.done ? "看看今天的学习奖励" : "去签到领金币"}
          </Link>
        </section>
        <section className="card today-card" aria-labelledby="today-live">
          <h2 className="today-card__title" id="today-live">
            下一场直播
          </h2>
          {nextLive ? (
            <>
              <p className="today-card__value today-card__value--text">
                <Link to={`/live/${nextLive.id}`}>{nextLive.title}</Link>
              </p>
              <p className="today-card__note">
                {`${nextLive.state === "live" ? "正在直播" : formatMonthDayTime(nextLive.startsAt)}${nextLive.booked ? " · 已预约" : ""}`}
              </p>
            </>
          ) : (
            <>
              <p className="today-card__value today-card__value--text">暂无</p>
              <Link className="text-link" to="/live">
                看看直播课表
              </Link>
            </>
          )}
        </section>
        <section className="card today-card" aria-labelledby="today-homework">
          <h2 className="today-card__title" id="today-homework">
            待交作业
          </h2>
          <p className="today-card__value">{homework.toDo}</p>
          <p className="today-card__note">
            {homework.inReview ? `另有 ${homework.inReview} 份等老师批改 · ` : ""}
            <Link to="/my/homework">我的作业</Link>
          </p>
        </section>
      </div>
      {homework.items.length ? (
        <ul className="homework-todo" aria-label="待交的作业">
          {homework.items.map((item) => (
            <li key={item.taskId} className="homework-todo__item">
              <span className="homework-todo__course">{item.courseTitle}</span>
              <Link to={`/video/${item.lessonId}`}>{item.title}</Link>
              {item.state === "returned" ? <span className="homework-todo__state">退回重写</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
      <AccountSection id="study-time" title="每周学习时长">
        <StudyChart weeks={studyWeeks} />
      </AccountSection>
    </>
  );
}
