/**
 * Gifts on the course page: the 赠送好友 button with the gift dialog (a message for the friend,
 * the rules in two sentences, then the order to pay), and the giveaway dialog a claim link
 * (`/course/{id}?gift={code}`) opens for the recipient, or that asks for a code typed by hand.
 * Closing the giveaway dialog takes `gift` out of the address.
 */
import { useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import type { CourseDetail, CourseViewer } from "../../../shared/contracts/courses";
import { useRootData } from "../../lib/root-data";
import { lazyDialog } from "../../lib/lazy-dialog";
import { LoginDialog } from "../LoginDialog";
import { useBuyingOff } from "../commerce/payments-mode";
import "./gifts.css";

// Both dialogs load the first time they open, or ahead of a click on hover or focus (decision 050).
const gift = lazyDialog(() => import("./GiftDialog").then((m) => m.GiftDialog));
const giveaway = lazyDialog(() => import("./GiveawayDialog").then((m) => m.GiveawayDialog));

/** The course a visitor wanted to give before signing in: the dialog opens once the signed-in page loads. */
const GIFT_AFTER_LOGIN_KEY = "mochi:gift-after-login";

export function GiftEntry({ course }: { course: CourseDetail }) {
  const { viewer } = useRootData();
  const off = useBuyingOff();
  const [open, setOpen] = useState(false);
  const [loginOpen, setLoginOpen] = useState(false);

  // Back from the login dialog with this course chosen as a gift before it: open the dialog now.
  useEffect(() => {
    if (!viewer || window.sessionStorage.getItem(GIFT_AFTER_LOGIN_KEY) !== String(course.id)) return;
    window.sessionStorage.removeItem(GIFT_AFTER_LOGIN_KEY);
    setOpen(true);
  }, [viewer, course.id]);

  const start = () => {
    if (viewer) {
      setOpen(true);
      return;
    }
    window.sessionStorage.setItem(GIFT_AFTER_LOGIN_KEY, String(course.id));
    setLoginOpen(true);
  };

  return (
    <>
      <button
        type="button"
        className="button course-hero__cta"
        onClick={start}
        onPointerEnter={viewer ? gift.preload : undefined}
        onFocus={viewer ? gift.preload : undefined}
        disabled={!!off}
        title={off ?? undefined}
      >
        赠送好友
      </button>
      {viewer ? (
        <gift.Dialog open={open} course={course} onClose={() => setOpen(false)} />
      ) : (
        <LoginDialog
          open={loginOpen}
          onClose={() => {
            window.sessionStorage.removeItem(GIFT_AFTER_LOGIN_KEY);
            setLoginOpen(false);
          }}
        />
      )}
    </>
  );
}

export function GiveawayFromLink({ course, viewer }: { course: CourseDetail; viewer: CourseViewer | null }) {
  const location = useLocation();
  const navigate = useNavigate();
  const code = new URLSearchParams(location.search).get("gift");
  const [typing, setTyping] = useState(false);

  /** Puts a code into the address (the dialog then shows that gift) or takes it out, in place. */
  const setCode = (next: string | null) => {
    const params = new URLSearchParams(location.search);
    if (next === null) params.delete("gift");
    else params.set("gift", next);
    const search = params.toString();
    void navigate(
      { pathname: location.pathname, search: search ? `?${search}` : "", hash: location.hash },
      { replace: true, preventScrollReset: true },
    );
  };

  const close = () => {
    setTyping(false);
    if (code !== null) setCode(null);
  };

  return (
    <>
      {course.priceCents > 0 && !viewer?.enrolled ? (
        <button
          type="button"
          className="gift-code-entry"
          onClick={() => setTyping(true)}
          onPointerEnter={giveaway.preload}
          onFocus={giveaway.preload}
        >
          收到礼物？输入领取码
        </button>
      ) : null}
      <giveaway.Dialog open={code !== null || typing} code={code} onClose={close} onCode={setCode} />
    </>
  );
}
