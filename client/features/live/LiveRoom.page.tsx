/**
 * 直播间 (/live/:id): the stream while live (for viewers with access), the chat, the online
 * count, 签到 and the attendance heartbeat; before the start a countdown on the server's clock
 * and the booking; afterwards the replay or why there is none yet. The page follows the room
 * over Server-Sent Events, so a state change shows without reloading.
 */
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import type { LiveStateKey } from "../../../shared/contracts/catalogue";
import {
  ATTENDANCE_BEAT_SECONDS,
  ATTENDANCE_COUNTED_SECONDS,
  type LiveAttendance,
  type LiveDetail,
  hasLiveAccess,
} from "../../../shared/contracts/live";
import { formatCountdown, formatMonthDayTime, formatTime } from "../../../shared/format";
import { coverUrl } from "../../../shared/media";
import { AppError, NOT_FOUND_MESSAGE, normalizeError } from "../../../shared/errors";
import { LoginDialog } from "../../components/LoginDialog";
import { Page } from "../../components/Page";
import { browserApi } from "../../lib/api";
import { useCountdown } from "../../lib/countdown";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { BookingButton } from "./BookingButton";
import { LiveLoadError, problemText } from "./live-errors";
import { liveEventJsonLd, stateName } from "./live-event";
import { RoomChat } from "./room-chat";
import { LivePlayer } from "./room-player";
import { useRoomEvents } from "./use-room-events";
import "./live.css";
import "@fontsource/ma-shan-zheng/400.css";

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
  const [notice, setNotice] = useState<string | null>(null);
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
  const needsStream = isLive && canWatch && !detail.streamUrl;
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

  useAttendanceBeat(live.id, learner && isLive && Boolean(detail.streamUrl), setAttendance);

  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(null), 5000);
    return () => clearTimeout(timer);
  }, [notice]);

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
    <Page
      title={live.title}
      className="page--live-room"
      lead={
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
      }
    >
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
      </div>
      <LoginDialog open={loginOpen} onClose={() => setLoginOpen(false)} />
    </Page>
  );
}

function Stage({
  detail,
  state,
  canWatch,
  now,
  booked,
  bookings,
  onBooked,
  onSignIn,
  onError,
  onCountdownEnd,
  signInAction,
  courseAction,
}: {
  detail: LiveDetail;
  state: LiveStateKey;
  canWatch: boolean;
  now: () => number;
  booked: boolean;
  bookings: number;
  onBooked: (result: { booked: boolean; bookings: number }) => void;
  onSignIn: () => void;
  onError: (message: string) => void;
  onCountdownEnd: () => void;
  signInAction: ReactNode;
  courseAction: ReactNode;
}) {
  const { live } = detail;
  if (state === "cancelled") {
    return (
      <StagePanel glyph="停" title="本场直播已取消">
        <p>老师因故取消了这场直播，已预约的同学会收到通知。</p>
        <Link className="button" to="/live?tab=upcoming">
          看看其他直播
        </Link>
      </StagePanel>
    );
  }
  if (state === "replay") {
    return (
      <StagePanel glyph="放" title="直播已结束，可以观看回放">
        <p>回放可以调节倍速，观看进度会自动保存。</p>
        <Link className="button button--primary" to={detail.replayUrl ?? `/playback?id=${live.id}`}>
          观看回放
        </Link>
      </StagePanel>
    );
  }
  if (state === "ended" || state === "processing") {
    return (
      <StagePanel glyph="墨" title="直播已结束，回放生成中">
        <p>回放通常在直播结束后 2 小时内生成，生成后即可在这里或“回放”页观看。</p>
        <Link className="text-link" to="/guide/live#playback">
          了解回放
        </Link>
      </StagePanel>
    );
  }
  if (state === "live" && canWatch) {
    return detail.streamUrl ? (
      <LivePlayer key={detail.streamUrl} src={detail.streamUrl} title={live.title} />
    ) : (
      <StagePanel glyph="播" title="直播开始了">
        <p role="status">正在连接直播信号…</p>
      </StagePanel>
    );
  }
  if (!canWatch) {
    return (
      <StagePanel glyph="锁" title={state === "live" ? "直播进行中" : "直播还未开始"}>
        {state === "scheduled" ? <Countdown startsAt={live.startsAt} now={now} onEnd={onCountdownEnd} /> : null}
        {detail.access === "sign_in" ? (
          <>
            <p>登录后即可确认是否可以观看这场直播。</p>
            {signInAction}
          </>
        ) : (
          <>
            <p>这场直播是{detail.course ? `《${detail.course.title}》` : "课程"}的课堂直播，报名课程后即可观看。</p>
            {courseAction}
          </>
        )}
      </StagePanel>
    );
  }
  return (
    <StagePanel glyph="候" title="直播还未开始">
      <Countdown startsAt={live.startsAt} now={now} onEnd={onCountdownEnd} />
      <p>
        {booked ? "已预约，开播时会通知你。" : "预约后，开播时会在站内通知你。"}
        {bookings > 0 ? `已有 ${bookings} 人预约。` : ""}
      </p>
      <BookingButton
        liveId={live.id}
        title={live.title}
        booked={booked}
        signedIn={detail.signedIn}
        access={detail.access}
        courseTitle={detail.course?.title ?? null}
        onChange={onBooked}
        onSignIn={onSignIn}
        onError={onError}
        small={false}
      />
    </StagePanel>
  );
}

function StagePanel({ glyph, title, children }: { glyph: string; title: string; children: ReactNode }) {
  return (
    <div className="live-stage__panel">
      <span className="live-stage__glyph" aria-hidden="true">
        {glyph}
      </span>
      <p className="live-stage__title">{title}</p>
      {children}
    </div>
  );
}

/** The time until the start, on the server's clock. */
function Countdown({ startsAt, now, onEnd }: { startsAt: string; now: () => number; onEnd: () => void }) {
  const left = useCountdown(startsAt, now, onEnd);
  return (
    <p className="live-countdown" role="timer" aria-live="off">
      <span className="live-countdown__label">距开播</span>
      <span className="live-countdown__value" data-testid="live-countdown">
        {formatCountdown(left)}
      </span>
    </p>
  );
}

function CheckIn({
  isLive,
  checkedInAt,
  onCheckIn,
}: {
  isLive: boolean;
  checkedInAt: string | null;
  onCheckIn: () => void;
}) {
  if (checkedInAt) {
    return (
      <span className="live-checkin is-done" data-testid="live-checked-in">
        已签到 {formatTime(checkedInAt)}
      </span>
    );
  }
  return (
    <button
      type="button"
      className="button button--small live-checkin"
      disabled={!isLive}
      title={isLive ? "签到只需一次" : "直播开始后可以签到"}
      onClick={onCheckIn}
    >
      签到
    </button>
  );
}

function AttendanceNote({ attendance }: { attendance: LiveAttendance | null }) {
  if (attendance?.countedAt) return <span className="live-attendance is-counted">本场已计为出勤</span>;
  const minutes = Math.floor((attendance?.seconds ?? 0) / 60);
  return (
    <span className="live-attendance">
      已观看 {minutes} 分钟 · 满 {ATTENDANCE_COUNTED_SECONDS / 60} 分钟计为出勤
    </span>
  );
}

/**
 * While the stream plays in a visible page: a beat every minute. Showing the page again starts
 * a new span (`start`), so time spent elsewhere never counts.
 */
function useAttendanceBeat(liveId: number, active: boolean, onResult: (attendance: LiveAttendance) => void) {
  const report = useRef(onResult);
  report.current = onResult;
  useEffect(() => {
    if (!active) return;
    let timer: ReturnType<typeof setInterval> | null = null;
    const beat = (start: boolean) => {
      browserApi(`/api/live/${liveId}/attendance`, {
        method: "POST",
        body: start ? { start: true } : {},
        schema: liveContract().then((m) => m.attendanceResultSchema),
      })
        .then((result) => report.current({ seconds: result.seconds, countedAt: result.countedAt }))
        .catch(() => {
          // A missed beat only costs that minute; the next one counts from the last that arrived.
        });
    };
    const run = () => {
      if (timer) clearInterval(timer);
      timer = null;
      if (document.visibilityState !== "visible") return;
      beat(true);
      timer = setInterval(() => beat(false), ATTENDANCE_BEAT_SECONDS * 1000);
    };
    run();
    document.addEventListener("visibilitychange", run);
    return () => {
      document.removeEventListener("visibilitychange", run);
      if (timer) clearInterval(timer);
    };
  }, [liveId, active]);
}
