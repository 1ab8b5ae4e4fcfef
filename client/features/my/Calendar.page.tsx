/**
 * 学习日历: a month (or list) of the learner's live lessons (their courses' and the ones they
 * booked, with the room's link), camp unlock days, homework waiting or returned and diary
 * entries, by China date; a day opens its list. Below, the private calendar feed (ICS) to copy,
 * reset or turn off.
 */
import { useEffect, useState } from "react";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { addDays, chinaDate } from "../../../shared/china-time";
import { type Calendar, type CalendarEvent, type CalendarFeed } from "../../../shared/contracts/practice";
import { FormAlert } from "../../components/form/FormAlert";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { mondayOf } from "./practice-charts";
import "./practice.css";
import { useMutation } from "../../lib/mutation";

/** The 6 weeks shown for a month: from the Monday on or before the 1st. */
function monthRange(month: string): { from: string; to: string } {
  const from = mondayOf(`${month}-01`);
  return { from, to: addDays(from, 41) };
}

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export async function loader({ env, signal, request }: PageLoaderArgs) {
  const asked = new URL(request.url).searchParams.get("month") ?? "";
  const month = MONTH.test(asked) ? asked : chinaDate(new Date()).slice(0, 7);
  const { from, to } = monthRange(month);
  const [calendar, feed] = await Promise.all([
    env.api(`/api/practice/calendar?from=${from}&to=${to}`, {
      signal,
      schema: import("../../../shared/contracts/practice").then((m) => m.calendarSchema),
    }),
    env.api("/api/practice/calendar/feed", {
      signal,
      schema: import("../../../shared/contracts/practice").then((m) => m.calendarFeedSchema),
    }),
  ]);
  return { month, calendar, feed, meta: { title: "学习日历", noindex: true } };
}

const kindLabels: Record<CalendarEvent["kind"], string> = {
  live: "直播",
  camp: "训练营",
  homework: "作业",
  diary: "打卡",
};

const shiftMonth = (month: string, by: number) => {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return d.toISOString().slice(0, 7);
};

function EventItem({ event }: { event: CalendarEvent }) {
  const time = event.time ? (event.endTime ? `${event.time}–${event.endTime}` : event.time) : "全天";
  const body = (
    <>
      <span className={`cal-kind cal-kind--${event.kind}`}>{kindLabels[event.kind]}</span>
      <span className="cal-event__time">{time}</span>
      <span className="cal-event__title">{event.title}</span>
      {event.detail ? <span className="cal-event__detail">{event.detail}</span> : null}
    </>
  );
  return (
    <li className="cal-event" data-kind={event.kind}>
      {event.href ? (
        <Link to={event.href} className="cal-event__link">
          {body}
        </Link>
      ) : (
        body
      )}
    </li>
  );
}

function FeedPanel({ initial }: { initial: CalendarFeed }) {
  const [feed, setFeed] = useState(initial);
  const [copied, setCopied] = useState(false);
  const { busy, problem, send } = useMutation();
  const feedSchema = () => import("../../../shared/contracts/practice").then((m) => m.calendarFeedSchema);
  const reset = () =>
    send("/api/practice/calendar/feed", {
      body: {},
      schema: feedSchema(),
      onSuccess: (next) => {
        setFeed(next);
        setCopied(false);
      },
    });
  const off = () => send("/api/practice/calendar/feed", { method: "DELETE", schema: feedSchema(), onSuccess: setFeed });
  const copy = async () => {
    if (!feed.url) return;
    try {
      await navigator.clipboard.writeText(feed.url);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <section className="card cal-feed" aria-labelledby="feed-title">
      <h2 id="feed-title">订阅到手机或电脑日历</h2>
      <p className="diary-muted">
        直播课会提前 15 分钟提醒，训练营每天解锁的新课也会出现在日历里；课程改时间后日历会随之更新。
        这个地址是你私人的，请不要分享；如果不小心泄露了，点“重置地址”，旧地址会立即失效。
      </p>
      {feed.enabled && feed.url ? (
        <>
          <div className="cal-feed__row">
            <input
              className="cal-feed__url"
              readOnly
              value={feed.url}
              aria-label="日历订阅地址"
              onFocus={(e) => e.target.select()}
            />
            <button type="button" className="button button--small" onClick={() => void copy()}>
              {copied ? "已复制" : "复制地址"}
            </button>
            <a className="button button--small" href={feed.url} download="mochi-calendar.ics">
              下载日历文件
            </a>
          </div>
          <div className="cal-feed__row">
            <button type="button" className="button button--small" disabled={busy} onClick={() => void reset()}>
              重置地址
            </button>
            <button type="button" className="button button--small" disabled={busy} onClick={() => void off()}>
              关闭订阅
            </button>
          </div>
        </>
      ) : (
        <button type="button" className="button button--primary" disabled={busy} onClick={() => void reset()}>
          开启日历订阅
        </button>
      )}
      <FormAlert problem={problem} />
    </section>
  );
}

export default function CalendarPage() {
  const { month, calendar: loaded, feed } = useLoaderData<typeof loader>();
  const [calendar, setCalendar] = useState<Calendar>(loaded);
  const [view, setView] = useState<"month" | "list">("month");
  const [selected, setSelected] = useState<string>(loaded.today.startsWith(month) ? loaded.today : `${month}-01`);
  useEffect(() => {
    setCalendar(loaded);
    setSelected(loaded.today.startsWith(month) ? loaded.today : `${month}-01`);
  }, [loaded, month]);

  const byDate = new Map<string, CalendarEvent[]>();
  for (const e of calendar.events) byDate.set(e.date, [...(byDate.get(e.date) ?? []), e]);
  const days = Array.from({ length: 42 }, (_, i) => addDays(calendar.from, i));
  const selectedEvents = byDate.get(selected) ?? [];
  const inMonth = calendar.events.filter((e) => e.date.startsWith(month));
  const [y, m] = month.split("-");

  return (
    <Page lead="直播课、训练营解锁、作业和每天的练字，都在这一张日历上。">
      <div className="cal-toolbar">
        <Link className="button button--small" to={`/my/calendar?month=${shiftMonth(month, -1)}`} aria-label="上个月">
          ‹ 上个月
        </Link>
        <h2 className="cal-toolbar__month">
          {y} 年 {Number(m)} 月
        </h2>
        <Link className="button button--small" to={`/my/calendar?month=${shiftMonth(month, 1)}`} aria-label="下个月">
          下个月 ›
        </Link>
        <Link className="button button--small" to="/my/calendar">
          今天
        </Link>
        <div className="cal-toolbar__views" role="group" aria-label="视图">
          <button
            type="button"
            className={`button button--small${view === "month" ? " button--primary" : ""}`}
            aria-pressed={view === "month"}
            onClick={() => setView("month")}
          >
            月
          </button>
          <button
            type="button"
            className={`button button--small${view === "list" ? " button--primary" : ""}`}
            aria-pressed={view === "list"}
            onClick={() => setView("list")}
          >
            列表
          </button>
        </div>
      </div>

      {view === "month" ? (
        <div className="cal-layout">
          <div className="cal-grid" role="group" aria-label={`${y} 年 ${Number(m)} 月`}>
            {["一", "二", "三", "四", "五", "六", "日"].map((d) => (
              <div key={d} className="cal-grid__head" aria-hidden="true">
                周{d}
              </div>
            ))}
            {days.map((date) => {
              const events = byDate.get(date) ?? [];
              const classes = [
                "cal-day",
                date.startsWith(month) ? "" : "cal-day--other",
                date === calendar.today ? "cal-day--today" : "",
                date === selected ? "cal-day--selected" : "",
              ]
                .filter(Boolean)
                .join(" ");
              return (
                <button
                  key={date}
                  type="button"
                  className={classes}
                  data-date={date}
                  aria-pressed={date === selected}
                  onClick={() => setSelected(date)}
                >
                  {/* The name is the visible text with the date and the count around it (no aria-label
                      that would hide what the button shows). */}
                  <span className="visually-hidden">{date}，</span>
                  <span className="cal-day__num">{Number(date.slice(8))}</span>
                  <span className="visually-hidden">{events.length ? `，${events.length} 项：` : "，无安排"}</span>
                  <span className="cal-day__dots">
                    {events.slice(0, 4).map((e) => (
                      <span key={e.id} className={`cal-dot cal-kind--${e.kind}`} title={e.title}>
                        {e.kind === "live" ? `${e.time} 直播` : kindLabels[e.kind]}
                      </span>
                    ))}
                    {events.length > 4 ? <span className="cal-more">+{events.length - 4}</span> : null}
                  </span>
                </button>
              );
            })}
          </div>
          <section className="card cal-agenda" aria-labelledby="day-title" data-testid="day-list">
            <h3 id="day-title">{selected}</h3>
            {selectedEvents.length === 0 ? (
              <p className="diary-muted">这一天没有安排。</p>
            ) : (
              <ul className="cal-events">
                {selectedEvents.map((e) => (
                  <EventItem key={e.id} event={e} />
                ))}
              </ul>
            )}
          </section>
        </div>
      ) : inMonth.length === 0 ? (
        <EmptyState glyph="历" title="这个月没有安排">
          <p>报名课程、预约直播或写下练字日记后，会显示在这里。</p>
        </EmptyState>
      ) : (
        <ol className="cal-list">
          {[...new Set(inMonth.map((e) => e.date))].map((date) => (
            <li key={date} className="cal-list__day">
              <h3>{date}</h3>
              <ul className="cal-events">
                {(byDate.get(date) ?? []).map((e) => (
                  <EventItem key={e.id} event={e} />
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}

      <FeedPanel initial={feed} />
    </Page>
  );
}
