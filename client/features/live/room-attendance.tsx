/**
 * A learner's attendance in a live room: checking in, the attendance so far, and the heartbeat that
 * records it while the stream plays.
 */
import { useEffect, useRef } from "react";
import {
  ATTENDANCE_BEAT_SECONDS,
  ATTENDANCE_COUNTED_SECONDS,
  type LiveAttendance,
} from "../../../shared/contracts/live";
import { formatTime } from "../../../shared/format";
import { browserApi } from "../../lib/api";
import "./live.css";
import "@fontsource/ma-shan-zheng/400.css";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const liveContract = () => import("../../../shared/contracts/live");

export function CheckIn({
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

export function AttendanceNote({ attendance }: { attendance: LiveAttendance | null }) {
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
export function useAttendanceBeat(liveId: number, active: boolean, onResult: (attendance: LiveAttendance) => void) {
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
