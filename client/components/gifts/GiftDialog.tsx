/**
 * The gift dialog of the course page's 赠送好友: a message for the friend, the rules in two
 * sentences, then the order to pay. Loaded the first time it opens (decision 050).
 */
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router-dom";
import { categoryTones } from "../../../shared/contracts/catalogue";
import type { CourseDetail } from "../../../shared/contracts/courses";
import { GIFT_CLAIM_DAYS, GIFT_MESSAGE_MAX } from "../../../shared/contracts/gifts";
import { coverSizes, coverOf } from "../../../shared/media";
import { FormAlert } from "../form/FormAlert";
import { LazyImage } from "../../lib/lazy-image";
import { Modal } from "../../lib/modal";
import { formatMoney } from "../../../shared/money";
import { useMutation } from "../../lib/mutation";

export function GiftDialog({ open, course, onClose }: { open: boolean; course: CourseDetail; onClose: () => void }) {
  const navigate = useNavigate();
  const order = useMutation({ idempotent: true });
  // Busy until the payment page shows.
  const [leaving, setLeaving] = useState(false);
  const [message, setMessage] = useState("");
  const [messageError, setMessageError] = useState<string | null>(null);
  const busy = order.busy || leaving;
  const problem = order.problem;
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
    await order.send("/api/gifts", {
      body: parsed.data,
      schema: import("../../../shared/contracts/orders").then((m) => m.createOrderResultSchema),
      onSuccess: ({ order: created }) => {
        setLeaving(true);
        void navigate(`/payment?order=${created.orderNo}`);
      },
    });
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
