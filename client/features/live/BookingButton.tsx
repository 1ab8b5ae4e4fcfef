/**
 * Booking a session (预约): the call and the button.
 */
import { useState } from "react";
import { bookingRule } from "../../../shared/action-rules";
import type { BookingResult, LiveAccess } from "../../../shared/contracts/live";
import { browserApi } from "../../lib/api";
import { problemText } from "./live-errors";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const liveContract = () => import("../../../shared/contracts/live");

/** Books or unbooks a session; the answer or a Chinese message. */
async function setBooking(liveId: number, book: boolean): Promise<BookingResult> {
  return browserApi(`/api/live/${liveId}/booking`, {
    method: book ? "POST" : "DELETE",
    body: {},
    schema: liveContract().then((m) => m.bookingResultSchema),
  });
}

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
