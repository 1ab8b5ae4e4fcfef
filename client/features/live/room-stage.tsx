/**
 * The stage of a live room: the player when it is on, otherwise what the state calls for (the
 * countdown and booking, sign-in or enrolment, the end, the playback).
 */
import { type ReactNode } from "react";
import { Link } from "../../routing/link";
import type { LiveStateKey } from "../../../shared/contracts/catalogue";
import { type LiveDetail } from "../../../shared/contracts/live";
import { formatCountdown } from "../../../shared/format";
import { useCountdown } from "../../lib/countdown";
import { BookingButton } from "./BookingButton";
import { LivePlayer } from "./room-player";
import "./live.css";
import "@fontsource/ma-shan-zheng/400.css";

export function Stage({
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
