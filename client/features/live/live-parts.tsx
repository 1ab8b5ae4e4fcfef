/**
 * What the schedule and the room share: schema.org Event data, the booking button, error texts
 * and the state shown when either did not load.
 */
import { useState } from "react";
import { useRevalidator } from "react-router-dom";
import { type LiveSummary, liveStates } from "../../../shared/contracts/catalogue";
import { bookingRule } from "../../../shared/action-rules";
import type { BookingResult, LiveAccess, LiveSite } from "../../../shared/contracts/live";
import { coverUrl } from "../../../shared/media";
import { EmptyState } from "../../components/EmptyState";
import { describeProblem } from "../../lib/problem";
import { browserApi } from "../../lib/api";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const liveContract = () => import("../../../shared/contracts/live");

/** schema.org Event of one session: an online event in its room, performed by its teacher. */
export function liveEventJsonLd(live: LiveSummary, site: LiveSite, description?: string): Record<string, unknown> {
  const roomUrl = `${site.origin}/live/${live.id}`;
  return {
    "@type": "Event",
    name: live.title,
    description:
      description ?? `${live.teacherName}老师的直播课${live.courseTitle ? `，属于《${live.courseTitle}》` : ""}。`,
    startDate: live.startsAt,
    endDate: live.endsAt,
    eventStatus: live.state === "cancelled" ? "https://schema.org/EventCancelled" : "https://schema.org/EventScheduled",
    eventAttendanceMode: "https://schema.org/OnlineEventAttendanceMode",
    location: { "@type": "VirtualLocation", url: roomUrl },
    image: [`${site.origin}${coverUrl(live.coverChar, "red", "landscape")}`],
    organizer: { "@type": "Organization", name: site.name, url: site.origin },
    performer: { "@type": "Person", name: live.teacherName },
    isAccessibleForFree: live.isOpen,
    inLanguage: "zh-CN",
    url: roomUrl,
  };
}

export function stateName(state: LiveSummary["state"]): string {
  return liveStates[state];
}

/** Books or unbooks a session; the answer or a Chinese message. */
export async function setBooking(liveId: number, book: boolean): Promise<BookingResult> {
  return browserApi(`/api/live/${liveId}/booking`, {
    method: book ? "POST" : "DELETE",
    body: {},
    schema: liveContract().then((m) => m.bookingResultSchema),
  });
}

export const problemText = (err: unknown) => describeProblem(err).message;

/**
 * 预约 / 已预约: a reminder when the session goes live. Anonymous visitors are asked to sign in
 * first (`onSignIn`); a failure is reported through `onError`.
 */
export function BookingButton({
  liveId,
  title,
  booked,
  signedIn,
  access,
  courseTitle,
  onChange,
  onSignIn,
  onError,
  small = true,
}: {
  liveId: number;
  title: string;
  booked: boolean;
  signedIn: boolean;
  /** Who the viewer is to the session: a learner who has not joined its course sees why not instead. */
  access: LiveAccess;
  courseTitle: string | null;
  onChange: (result: BookingResult) => void;
  onSignIn: () => void;
  onError: (message: string) => void;
  small?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const size = small ? " button--small" : "";
  // The server's booking rule, asked before offering the button (anonymous visitors sign in first).
  const rule = bookingRule({ access, state: "scheduled", courseTitle });
  if (signedIn && !booked && !rule.ok) {
    return (
      <span className="booking-refused">
        <button
          type="button"
          className={`button${size}`}
          disabled
          aria-label={`预约「${title}」`}
          aria-describedby={`booking-why-${liveId}`}
        >
          预约
        </button>
        <span className="action-reason" id={`booking-why-${liveId}`}>
          {rule.reason}
        </span>
      </span>
    );
  }
  return (
    <button
      type="button"
      className={booked ? `button${size} live-booked` : `button button--primary${size}`}
      aria-pressed={signedIn ? booked : undefined}
      aria-label={booked ? `已预约「${title}」，点击取消预约` : `预约「${title}」`}
      title={booked ? "已预约，开播时会提醒你；点击取消预约" : "预约后开播时提醒你"}
      disabled={busy}
      onClick={() => {
        if (!signedIn) {
          onSignIn();
          return;
        }
        setBusy(true);
        setBooking(liveId, !booked)
          .then(onChange)
          .catch((err: unknown) => onError(problemText(err)))
          .finally(() => setBusy(false));
      }}
    >
      {booked ? "已预约" : "预约"}
    </button>
  );
}

/** The schedule or a room did not load: what went wrong (a timeout or not) and a way to try again. */
export function LiveLoadError({ title, status }: { title: string; status: number | null }) {
  const revalidator = useRevalidator();
  return (
    <EmptyState
      glyph="误"
      title={title}
      action={
        <button
          type="button"
          className="button"
          disabled={revalidator.state === "loading"}
          onClick={() => void revalidator.revalidate()}
        >
          {revalidator.state === "loading" ? "正在重新加载…" : "重新加载"}
        </button>
      }
    >
      <p>{status === 504 ? "请求超时了，" : "服务暂时不可用，"}请稍后再试。</p>
    </EmptyState>
  );
}
