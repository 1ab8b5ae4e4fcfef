/**
 * 参加活动 on an activity's page: 报名 (or why not), the learner's state, 打卡 into today's
 * practice diary once a day, the check-in days, and the activity's 临写作业. What each button
 * may do comes from the API (the server's rules); a refusal is shown beside the action.
 */
import { type FormEvent, useState } from "react";
import { Link } from "../../routing/link";
import type { Participation } from "../../../shared/contracts/activities";
import { browserApi } from "../../lib/api";
import { describeProblem } from "../../lib/problem";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const activitiesContract = () => import("../../../shared/contracts/activities");

const shortDate = (date: string) => `${Number(date.slice(5, 7))}月${Number(date.slice(8, 10))}日`;

export function ActivityJoin({ token, initial }: { token: string; initial: Participation }) {
  const [view, setView] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null);
  const [minutes, setMinutes] = useState("");
  const [characters, setCharacters] = useState("");

  const run = async (action: () => Promise<{ participation: Participation; message: string }>) => {
    setBusy(true);
    setNotice(null);
    try {
      const result = await action();
      setView(result.participation);
      setNotice({ text: result.message, error: false });
      return true;
    } catch (err) {
      setNotice({ text: describeProblem(err).message, error: true });
      return false;
    } finally {
      setBusy(false);
    }
  };

  const signUp = () =>
    run(() =>
      browserApi(`/api/activities/${encodeURIComponent(token)}/signup`, {
        method: "POST",
        body: {},
        schema: activitiesContract().then((m) => m.participationResultSchema),
      }),
    );
  const cancel = () =>
    run(() =>
      browserApi(`/api/activities/${encodeURIComponent(token)}/signup`, {
        method: "DELETE",
        body: {},
        schema: activitiesContract().then((m) => m.participationResultSchema),
      }),
    );
  const checkIn = async (e: FormEvent) => {
    e.preventDefault();
    const done = await run(() =>
      browserApi(`/api/activities/${encodeURIComponent(token)}/check-ins`, {
        method: "POST",
        body: { minutes: minutes.trim() === "" ? 0 : Number(minutes), characters: characters.trim() },
        schema: activitiesContract().then((m) => m.checkInResultSchema),
      }),
    );
    if (done) {
      setMinutes("");
      setCharacters("");
    }
  };

  const signedUp = view.signup?.state === "signed_up";
  const places =
    view.capacity !== null
      ? `名额 ${view.capacity} 人，已报名 ${Math.min(view.signedUpCount, view.capacity)} 人`
      : null;

  return (
    <section className="card activity-join" aria-labelledby="activity-join-title">
      <div className="activity-join__head">
        <h2 id="activity-join-title">参加活动</h2>
        {view.signup ? (
          <span
            className={`activity-signup activity-signup--${view.signup.state.replace("_", "-")}`}
            data-testid="signup-state"
          >
            {view.signup.stateLabel}
          </span>
        ) : null}
      </div>
      {places ? <p className="activity-join__places">{places}</p> : null}

      {!signedUp ? (
        <div className="activity-join__row">
          {!view.signedIn ? (
            <Link className="button button--primary" to="?login=1">
              登录后报名
            </Link>
          ) : view.signUp.allowed ? (
            <button type="button" className="button button--primary" disabled={busy} onClick={() => void signUp()}>
              {view.signup?.state === "cancelled" ? "重新报名" : "报名参加"}
            </button>
          ) : (
            <>
              <button type="button" className="button" disabled>
                报名参加
              </button>
              <span className="activity-join__why">{view.signUp.reason}</span>
            </>
          )}
        </div>
      ) : null}

      {signedUp ? (
        <>
          <div className="activity-join__checkins">
            <p>
              已打卡 <strong data-testid="check-in-days">{view.checkIns.length}</strong> 天
              {view.checkIns.length > 0 ? (
                <span className="activity-join__days">
                  （{view.checkIns.slice(0, 7).map(shortDate).join("、")}
                  {view.checkIns.length > 7 ? " 等" : ""}）
                </span>
              ) : null}
            </p>
          </div>
          {view.checkIn.allowed ? (
            <form className="activity-join__form" onSubmit={(e) => void checkIn(e)} aria-label="今日打卡">
              <label className="activity-field">
                <span>练了多少分钟</span>
                <input
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={600}
                  value={minutes}
                  onChange={(e) => setMinutes(e.target.value)}
                  placeholder="20"
                />
              </label>
              <label className="activity-field">
                <span>临写了哪些字（可不填）</span>
                <input
                  type="text"
                  value={characters}
                  onChange={(e) => setCharacters(e.target.value)}
                  placeholder="例如：永和九年"
                  maxLength={100}
                />
              </label>
              <button type="submit" className="button button--primary" disabled={busy}>
                今日打卡
              </button>
            </form>
          ) : (
            <p className="activity-join__why">{view.checkIn.reason}</p>
          )}
          <p className="activity-join__note">
            打卡的时长和字记入当天的<Link to="/my/dairy">练字日记</Link>，每天第一次打卡按日记的规则得签到金币。
          </p>
        </>
      ) : null}

      {view.homework ? (
        <div className="activity-join__homework">
          <h3>临写作业：{view.homework.lessonTitle}</h3>
          {view.homework.allowed ? (
            <Link className="button" to={`/video/${view.homework.lessonId}#lesson-homework-title`}>
              去交临写作业
            </Link>
          ) : (
            <p className="activity-join__why">{view.homework.reason}</p>
          )}
        </div>
      ) : null}

      {signedUp && view.cancel.allowed ? (
        <p className="activity-join__cancel">
          <button type="button" className="button button--small" disabled={busy} onClick={() => void cancel()}>
            取消报名
          </button>
        </p>
      ) : null}

      {notice ? (
        <p
          className={notice.error ? "activity-join__error" : "activity-join__done"}
          role={notice.error ? "alert" : "status"}
        >
          {notice.text}
        </p>
      ) : null}
    </section>
  );
}
