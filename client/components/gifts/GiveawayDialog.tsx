/**
 * The giveaway dialog a claim link opens on the course page: who gave the course, their message,
 * the course and until when it can be claimed; a visitor signs in first (the page comes back with
 * the link, so the dialog opens again), a signed-in learner claims it and can start learning at
 * once. Every refusal is said in plain words. Without a code it asks for one (a code typed from a
 * message works in any case, with or without dashes).
 */
import { type FormEvent, useEffect, useState } from "react";
import { useRevalidator } from "react-router-dom";
import { Link } from "../../routing/link";
import {
  GIFT_CODE_LENGTH,
  type GiftClaimResult,
  type GiftView,
  normalizeGiftCode,
} from "../../../shared/contracts/gifts";
import { coverSizes } from "../../../shared/media";
import { useRootData } from "../../lib/root-data";
import { LoginDialog } from "../LoginDialog";
import { FormAlert } from "../form/FormAlert";
import { describeProblem, type Problem } from "../../lib/problem";
import { browserApi } from "../../lib/api";
import { LazyImage } from "../../lib/lazy-image";
import { Modal } from "../../lib/modal";
import "./gifts.css";
import { formatDateTime } from "../../../shared/format";
import { formatMoney } from "../../../shared/money";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const giftsContract = () => import("../../../shared/contracts/gifts");

type Loaded = { code: string; gift: GiftView | null; problem: Problem | null };

function CodeForm({ onCode }: { onCode: (code: string) => void }) {
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  function submit(event: FormEvent) {
    event.preventDefault();
    const code = normalizeGiftCode(value);
    if (!code) {
      setError(`领取码是 ${GIFT_CODE_LENGTH} 位字母或数字（如 7K3M-9QXZ-2BHD），请检查后重新输入`);
      return;
    }
    setError(null);
    onCode(code);
  }
  return (
    <form className="giveaway-code" onSubmit={submit} noValidate>
      <p>输入好友发给你的领取码，查看并领取礼物。</p>
      <div className="form-field">
        <label className="form-field__label" htmlFor="giveaway-code">
          领取码
        </label>
        <input
          id="giveaway-code"
          className="form-field__control"
          value={value}
          placeholder="XXXX-XXXX-XXXX"
          autoComplete="off"
          spellCheck={false}
          maxLength={20}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "giveaway-code-error" : undefined}
          onChange={(e) => setValue(e.target.value)}
        />
        {error ? (
          <p className="form-field__error" id="giveaway-code-error">
            {error}
          </p>
        ) : null}
      </div>
      <div className="form__actions">
        <button type="submit" className="button button--primary">
          查看礼物
        </button>
      </div>
    </form>
  );
}

function GiftCard({ gift }: { gift: GiftView }) {
  const size = coverSizes.landscape;
  return (
    <>
      <div className="giveaway-from">
        {gift.giver.avatarUrl ? (
          <img className="giveaway-from__avatar" src={gift.giver.avatarUrl} alt="" width={48} height={48} />
        ) : (
          <span className="giveaway-from__avatar giveaway-from__avatar--seal" aria-hidden="true">
            {Array.from(gift.giver.nickname)[0]}
          </span>
        )}
        <p>
          <strong>{gift.giver.nickname}</strong>{" "}
          {`${gift.mine ? "（你）" : ""}送出一门${giftCourseKind(gift.course.categoryName)}`}
        </p>
      </div>
      {gift.message ? <blockquote className="giveaway-message">{gift.message}</blockquote> : null}
      <div className="card giveaway-course">
        <LazyImage
          src={gift.course.coverUrl}
          alt={`${gift.course.title}封面`}
          width={size.width}
          height={size.height}
        />
        <div>
          <p className="giveaway-course__title">{gift.course.title}</p>
          <p className="giveaway-course__meta">
            {gift.course.teacherName}老师 · {gift.course.lessonsCount} 课时 · 价值 {formatMoney(gift.course.priceCents)}
          </p>
          {gift.state === "unclaimed" && gift.claimUntil ? (
            <p className="giveaway-course__meta">请在 {formatDateTime(gift.claimUntil)} 前领取</p>
          ) : null}
        </div>
      </div>
    </>
  );
}

function Claimed({ result, onClose }: { result: GiftClaimResult; onClose: () => void }) {
  return (
    <div className="giveaway-done" role="status">
      <span className="seal giveaway-done__seal" aria-hidden="true">
        领
      </span>
      <p>《{result.courseTitle}》已放进你的课程，全部课时现在就可以学习，学习进度在各设备间同步。</p>
      <div className="form__actions">
        {result.firstLessonId ? (
          <Link className="button button--primary" to={`/video/${result.firstLessonId}`}>
            开始学习
          </Link>
        ) : null}
        <button type="button" className="button" onClick={onClose}>
          留在本页
        </button>
      </div>
    </div>
  );
}

/** Not every course is calligraphy (写作, 国学): the dialog names the kind of course given. */
export function giftCourseKind(categoryName: string): string {
  return categoryName ? `${categoryName}课` : "课程";
}

export function GiveawayDialog({
  open,
  code,
  onClose,
  onCode,
}: {
  open: boolean;
  /** The code of the link (as written there), or null: ask for one. */
  code: string | null;
  onClose: () => void;
  onCode: (code: string) => void;
}) {
  const { viewer } = useRootData();
  const revalidator = useRevalidator();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [claimed, setClaimed] = useState<GiftClaimResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [loginOpen, setLoginOpen] = useState(false);

  useEffect(() => {
    if (code === null) return;
    let live = true;
    browserApi(`/api/gifts/${encodeURIComponent(code)}`, { schema: giftsContract().then((m) => m.giftViewSchema) })
      .then((gift) => {
        if (live) setLoaded({ code, gift, problem: null });
      })
      .catch((err: unknown) => {
        if (live) setLoaded({ code, gift: null, problem: describeProblem(err) });
      });
    return () => {
      live = false;
    };
  }, [code]);

  const current = loaded && loaded.code === code ? loaded : null;
  const gift = current?.gift ?? null;

  async function claim() {
    if (!gift) return;
    setBusy(true);
    setProblem(null);
    try {
      const result = await browserApi(`/api/gifts/${encodeURIComponent(gift.code)}/claim`, {
        method: "POST",
        body: {},
        schema: giftsContract().then((m) => m.giftClaimResultSchema),
      });
      setClaimed(result);
      // The course page behind shows the course as the learner's now.
      void revalidator.revalidate();
    } catch (err) {
      setProblem(describeProblem(err));
    } finally {
      setBusy(false);
    }
  }

  let title = "领取礼物";
  if (claimed) title = "领取成功";
  else if (gift) title = gift.mine ? "你赠送的礼物" : "好友送你一门课";

  const dismiss = (
    <div className="form__actions">
      <button type="button" className="button" onClick={onClose}>
        知道了
      </button>
    </div>
  );
  let body;
  if (code === null) body = <CodeForm onCode={onCode} />;
  else if (!current) body = <p role="status">正在打开礼物…</p>;
  else if (!gift)
    body = (
      <>
        <FormAlert problem={current.problem} />
        {dismiss}
      </>
    );
  else if (claimed) body = <Claimed result={claimed} onClose={onClose} />;
  else
    body = (
      <>
        <GiftCard gift={gift} />
        {gift.claim === null ? (
          <>
            <p className="giveaway-hint">登录后即可领取，课程会放进你的「我的课程」。</p>
            <div className="form__actions">
              <button type="button" className="button button--primary" onClick={() => setLoginOpen(true)}>
                登录后领取
              </button>
            </div>
          </>
        ) : gift.claimedByViewer ? (
          <>
            <p className="giveaway-hint">你已领取这份礼物，课程在「我的课程」里。</p>
            <div className="form__actions">
              <Link className="button button--primary" to={`/course/${gift.course.id}`} onClick={onClose}>
                去学习
              </Link>
            </div>
          </>
        ) : gift.claim.allowed ? (
          <>
            <FormAlert problem={problem} />
            <div className="form__actions">
              <button type="button" className="button button--primary" disabled={busy} onClick={() => void claim()}>
                {busy ? "正在领取…" : "领取课程"}
              </button>
            </div>
          </>
        ) : (
          <>
            <p className="giveaway-refusal" role="alert">
              {gift.claim.reason}
            </p>
            {dismiss}
          </>
        )}
      </>
    );

  return (
    <>
      <Modal open={open} onClose={onClose} title={title} className="giveaway-dialog">
        {body}
      </Modal>
      {!viewer ? <LoginDialog open={loginOpen} onClose={() => setLoginOpen(false)} /> : null}
    </>
  );
}
