/**
 * Gifts on the course page: the 赠送好友 button with the gift dialog (a message for the friend,
 * the rules in two sentences, then the order to pay), and the giveaway dialog a claim link
 * (`/course/{id}?gift={code}`) opens for the recipient, or that asks for a code typed by hand.
 * Closing the giveaway dialog takes `gift` out of the address.
 */
import { type FormEvent, useEffect, useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { categoryTones } from "../../../shared/contracts/catalogue";
import type { CourseDetail, CourseViewer } from "../../../shared/contracts/courses";
import { GIFT_CLAIM_DAYS, GIFT_MESSAGE_MAX } from "../../../shared/contracts/gifts";
import { coverSizes, coverOf } from "../../../shared/media";
import { useRootData } from "../../lib/root-data";
import { LoginDialog } from "../LoginDialog";
import { FormAlert } from "../form/fields";
import { describeProblem, type Problem } from "../../lib/problem";
import { LazyImage } from "../../lib/lazy-image";
import { Modal } from "../../lib/modal";
import { useBuyingOff } from "../commerce/payments-mode";
import { GiveawayDialog } from "./GiveawayDialog";
import "./gifts.css";
import { formatMoney } from "../../../shared/money";
import { useIdempotentPost } from "../../lib/idempotent-post";

/** The course a visitor wanted to give before signing in: the dialog opens once the signed-in page loads. */
const GIFT_AFTER_LOGIN_KEY = "mochi:gift-after-login";

function GiftDialog({ open, course, onClose }: { open: boolean; course: CourseDetail; onClose: () => void }) {
  const navigate = useNavigate();
  const post = useIdempotentPost();
  const [message, setMessage] = useState("");
  const [messageError, setMessageError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const size = coverSizes.landscape;

  async function submit(event: FormEvent) {
    event.preventDefault();
    // The contracts load with the first gift (decision 030).
    const { createGiftSchema } = await import("../../../shared/contracts/gifts");
    const parsed = createGiftSchema.safeParse({ courseId: course.id, message });
    if (!parsed.success) {
      setMessageError(parsed.error.issues[0]?.message ?? "赠言不正确");
      return;
    }
    setMessageError(null);
    setBusy(true);
    setProblem(null);
    try {
      const { order } = await post(
        "/api/gifts",
        parsed.data,
        import("../../../shared/contracts/orders").then((m) => m.createOrderResultSchema),
      );
      void navigate(`/payment?order=${order.orderNo}`);
    } catch (err) {
      setProblem(describeProblem(err));
      setBusy(false);
    }
  }

  return (
    <Modal open={open} onClose={onClose} title="赠送好友" className="gift-dialog">
      <form onSubmit={submit} noValidate>
        <div className="card giveaway-course">
          <LazyImage
            src={coverOf(course, categoryTones[course.category], "landscape")}
            alt={`${course.title}封面`}
            width={size.width}
            height={size.height}
          />
          <div>
            <p className="giveaway-course__title">{course.title}</p>
            <p className="giveaway-course__meta">
              {course.teacherName}老师 · {course.lessonsCount} 课时
            </p>
            <p className="gift-dialog__price">{formatMoney(course.priceCents)}</p>
          </div>
        </div>
        <div className="form-field">
          <label className="form-field__label" htmlFor="gift-message">
            赠言<span className="form-field__optional">选填</span>
          </label>
          <textarea
            id="gift-message"
            className="form-field__control gift-dialog__message"
            value={message}
            maxLength={GIFT_MESSAGE_MAX}
            placeholder="写一句话给好友，比如：一起把字练好"
            aria-invalid={messageError ? true : undefined}
            aria-describedby="gift-message-meta"
            onChange={(e) => setMessage(e.target.value)}
          />
          <p className="form-field__meta" id="gift-message-meta">
            {messageError ? <span className="form-field__error">{messageError}</span> : <span>好友领取时会看到</span>}
            <span className="form-field__counter">
              {message.length}/{GIFT_MESSAGE_MAX}
            </span>
          </p>
        </div>
        <p className="gift-dialog__rules">
          支付后你会得到一个领取链接和领取码，发给好友，好友登录后即可领取，课程归好友所有。
          {GIFT_CLAIM_DAYS} 天内没有被领取，可以申请全额退款。
        </p>
        <FormAlert problem={problem} />
        <div className="form__actions">
          <button type="button" className="button" onClick={onClose}>
            再想想
          </button>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? "正在下单…" : `去支付 ${formatMoney(course.priceCents)}`}
          </button>
        </div>
      </form>
    </Modal>
  );
}

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
        disabled={!!off}
        title={off ?? undefined}
      >
        赠送好友
      </button>
      {viewer ? (
        <GiftDialog open={open} course={course} onClose={() => setOpen(false)} />
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
        <button type="button" className="gift-code-entry" onClick={() => setTyping(true)}>
          收到礼物？输入领取码
        </button>
      ) : null}
      <GiveawayDialog open={code !== null || typing} code={code} onClose={close} onCode={setCode} />
    </>
  );
}
