/**
 * 直播间 (/live/:id): the stream while live (for viewers with access), the chat, the online
 * count, 签到 and the attendance heartbeat; before the start a countdown on the server's clock
 * and the booking; afterwards the replay or why there is none yet. The page follows the room
 * over Server-Sent Events, so a state change shows without reloading.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import type { LiveStateKey } from "../../../shared/contracts/catalogue";
import { type LiveAttendance, type LiveDetail, hasLiveAccess } from "../../../shared/contracts/live";
import { formatMonthDayTime, formatTime } from "../../../shared/format";
import { coverUrl } from "../../../shared/media";
import { AppError, NOT_FOUND_MESSAGE, normalizeError } from "../../../shared/errors";
import { LoginDialog } from "../../components/LoginDialog";
import { Page } from "../../components/Page";
import { browserApi } from "../../lib/api";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { LiveLoadError, problemText } from "./live-errors";
import { liveEventJsonLd, stateName } from "./live-event";
import { RoomChat } from "./room-chat";
import { useRoomEvents } from "./use-room-events";
import "./live.css";
import "@fontsource/ma-shan-zheng/400.css";
import { CheckIn, AttendanceNote, useAttendanceBeat } from "./room-attendance";
import { Stage } from "./room-stage";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const liveContract = () => import("../../../shared/contracts/live");

export async function loader({ params, env, signal }: PageLoaderArgs) {
  try {
    const detail = await env.api(`/api/live/${params.id}`, {
      signal,
      schema: liveContract().then((m) => m.liveDetailSchema),
    });
    const { live } = detail;
    return {
      detail,
      errorStatus: null,
      meta: {
        title: live.title,
        description: `${formatMonthDayTime(live.startsAt)} · ${live.teacherName}老师 · ${detail.summary}`.slice(0, 150),
        image: coverUrl(live.coverChar, "red", "landscape"),
        jsonLd: liveEventJsonLd(live, detail.site, detail.summary),
      },
    };
  } catch (err) {
    if (signal.aborted) throw err;
    const { statusCode } = normalizeError(err);
    if (statusCode === 404) throw new AppError(404, NOT_FOUND_MESSAGE);
    return {
      detail: null,
      errorStatus: statusCode,
      meta: { title: "直播间", description: "墨池课堂直播间：名师在线示范书写、当堂答疑。", noindex: true },
    };
  }
}

export default function LiveRoomPage() {
  const data = useLoaderData<typeof loader>();
  if (!data.detail) return <RoomError status={data.errorStatus} />;
  return <Room key={data.detail.live.id} initial={data.detail} />;
}

function RoomError({ status }: { status: number | null }) {
  return (
    <Page>
      <LiveLoadError title="直播间没能打开" status={status} />
    </Page>
  );
}

const STATE_ORDER: LiveStateKey[] = ["scheduled", "live", "ended", "processing", "replay"];
/** States only move forward on the page (a late answer never takes the room back); cancelling always wins. */
function forward(current: LiveStateKey, next: LiveStateKey): LiveStateKey {
  if (current === "cancelled" || next === "cancelled") return "cancelled";
  return STATE_ORDER.indexOf(next) > STATE_ORDER.indexOf(current) ? next : current;
}

/** The server's clock in the browser: its time when the page data was made plus the time since. */
function useServerClock(serverNow: string) {
  const offset = useRef<number | null>(null);
  const sync = useCallback((iso: string) => {
    offset.current = Date.parse(iso) - Date.now();
  }, []);
  useEffect(() => {
    if (offset.current === null) sync(serverNow);
  }, [serverNow, sync]);
  const now = useCallback(
    () => (offset.current === null ? Date.parse(serverNow) : Date.now() + offset.current),
    [serverNow],
  );
  return useMemo(() => ({ now, sync }), [now, sync]);
}

function Room({ initial }: { initial: LiveDetail }) {
  const [detail, setDetail] = useState(initial);
  const [state, setState] = useState<LiveStateKey>(initial.live.state);
  const [online, setOnline] = useState(initial.online);
  const [booked, setBooked] = useState(initial.booked);
  const [bookings, setBookings] = useState(initial.bookings);
  const [checkedInAt, setCheckedInAt] = useState(initial.checkedInAt);
  const [attendance, setAttendance] = useState<LiveAttendance | null>(initial.attendance);
  const [loginOpen, setLoginOpen] = useState(false);
  const [notice, setNotice] = useFadingNotice();
  const clock = useServerClock(initial.serverNow);
  const { live } = detail;
  const canWatch = hasLiveAccess(detail.access);
  // Check-in and attendance are the learners'; the teacher and operators only watch and talk.
  const learner = detail.signedIn && (detail.access === "enrolled" || detail.access === "open");
  const isLive = state === "live";

  const refresh = useCallback(async () => {
    const fresh = await browserApi(`/api/live/${live.id}`, { schema: liveContract().then((m) => m.liveDetailSchema) });
    clock.sync(fresh.serverNow);
    setDetail(fresh);
    setState((current) => forward(current, fresh.live.state));
    setBooked(fresh.booked);
    setBookings(fresh.bookings);
    setCheckedInAt(fresh.checkedInAt);
    setAttendance(fresh.attendance);
    return fresh;
  }, [live.id, clock]);

  const room = useRoomEvents(live.id, detail.signedIn && canWatch && state !== "cancelled", {
    onState: (next, serverNow) => {
      clock.sync(serverNow);
      setState((current) => forward(current, next));
    },
    onOnline: setOnline,
  });

  // Going live needs the stream address, which only a fresh read gives.
  useStreamAddress(isLive && canWatch && !detail.streamUrl, refresh);

  useAttendanceBeat(live.id, learner && isLive && Boolean(detail.streamUrl), setAttendance);

  const checkIn = () => {
    browserApi(`/api/live/${live.id}/check-in`, {
      method: "POST",
      body: {},
      schema: liveContract().then((m) => m.checkInResultSchema),
    })
      .then((result) => {
        setCheckedInAt(result.checkedInAt);
        setNotice(result.already ? "你已经签过到了" : "签到成功");
      })
      .catch((err: unknown) => setNotice(problemText(err)));
  };

  const signInLink = (
    <button type="button" className="button button--primary" onClick={() => setLoginOpen(true)}>
      登录
    </button>
  );
  const courseLink = detail.course ? (
    <Link className="button button--primary" to={`/course/${detail.course.id}`}>
      查看课程《{detail.course.title}》
    </Link>
  ) : null;

  return (
    <Page title={live.title} className="page--live-room" lead={<RoomLead detail={detail} state={state} />}>
      {/* Stage and toolbar on the left, the chat beside them at exactly their height, the introduction below. */}
      <div className="live-room">
        <div className="live-stage">
          <Stage
            detail={detail}
            state={state}
            canWatch={canWatch}
            now={clock.now}
            booked={booked}
            bookings={bookings}
            onBooked={(result) => {
              setBooked(result.booked);
              setBookings(result.bookings);
              setNotice(result.booked ? "预约成功，开播时会通知你" : "已取消预约");
            }}
            onSignIn={() => setLoginOpen(true)}
            onError={setNotice}
            onCountdownEnd={() => setState((s) => (s === "scheduled" ? "live" : s))}
            signInAction={signInLink}
            courseAction={courseLink}
          />
        </div>
        <div className="live-room__toolbar">
          <span className="live-room__online" data-testid="live-online">
            在线 {online} 人
          </span>
          {learner ? <CheckIn isLive={isLive} checkedInAt={checkedInAt} onCheckIn={checkIn} /> : null}
          {learner && (isLive || attendance) ? <AttendanceNote attendance={attendance} /> : null}
          {notice ? (
            <span className="live-room__notice" role="status">
              {notice}
            </span>
          ) : null}
        </div>
        <aside className="live-room__side">
          <RoomChat
            liveId={live.id}
            messages={room.messages}
            connection={room.connection}
            onRetry={room.retry}
            onSent={room.addOwn}
            pinned={room.pinned}
            canSend={detail.signedIn && canWatch && isLive && room.connection !== "failed"}
            disabledReason={isLive ? "正在进入聊天室…" : "直播开始后可以发言"}
            locked={
              !detail.signedIn ? (
                <>
                  <p>登录后可以参与聊天、签到，并记录出勤。</p>
                  {signInLink}
                </>
              ) : !canWatch ? (
                <>
                  <p>这是课程学员的课堂，报名后即可参与互动。</p>
                  {courseLink}
                </>
              ) : state === "cancelled" ? (
                <p>本场直播已取消。</p>
              ) : undefined
            }
          />
        </aside>
        <RoomAbout detail={detail} />
      </div>
      <LoginDialog open={loginOpen} onClose={() => setLoginOpen(false)} />
    </Page>
  );
}

/** Reads the room again (a few times, 3 s apart) until it gives the stream address. */
function useStreamAddress(needsStream: boolean, refresh: () => Promise<LiveDetail>) {
  useEffect(() => {
    if (!needsStream) return;
    let stopped = false;
    let tries = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const again = () => {
      if (!stopped && ++tries < 10) timer = setTimeout(load, 3000);
    };
    const load = () => {
      refresh()
        .then((fresh) => {
          // The server may not see the start yet (clocks differ by a moment): ask again shortly.
          if (!fresh.streamUrl && fresh.live.state !== "cancelled") again();
        })
        .catch(again);
    };
    load();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [needsStream, refresh]);
}

/** A short message under the stage that fades after five seconds. */
function useFadingNotice() {
  const [notice, setNotice] = useState<string | null>(null);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), 5000);
    return () => clearTimeout(timer);
  }, [notice]);
  return [notice, setNotice] as const;
}

/** State, time, teacher and course under the room's title. */
function RoomLead({ detail, state }: { detail: LiveDetail; state: LiveStateKey }) {
  const { live } = detail;
  return (
    <>
      <span className={`live-badge live-badge--${state}`} data-testid="live-state">
        {stateName(state)}
      </span>
      {formatMonthDayTime(live.startsAt)} – {formatTime(live.endsAt)} · {detail.teacher.name}老师
      {detail.course ? (
        <>
          {" · "}
          <Link className="text-link" to={`/course/${detail.course.id}`}>
            {detail.course.title}
          </Link>
        </>
      ) : null}
      {live.isOpen ? " · 公开课" : ""}
    </>
  );
}

/** The teacher and the session's introduction, under the stage. */
function RoomAbout({ detail }: { detail: LiveDetail }) {
  return (
    <section className="live-room__about" aria-labelledby="live-about">
      <h2 id="live-about" className="visually-hidden">
        本场介绍
      </h2>
      <div className="live-teacher">
        <span className="live-teacher__portrait" aria-hidden="true">
          {detail.teacher.portraitChar}
        </span>
        <div>
          <p className="live-teacher__name">
            {detail.teacher.name}
            <span className="live-teacher__title">{detail.teacher.title}</span>
          </p>
          <p className="live-teacher__bio">{detail.teacher.bio || detail.teacher.specialty}</p>
        </div>
      </div>
      <p className="live-room__summary">{detail.summary}</p>
    </section>
  );
}
