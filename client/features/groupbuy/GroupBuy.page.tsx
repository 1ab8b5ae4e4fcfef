/**
 * One group buy (/groupbuy/{groupNo}), the page a shared link opens: the course at the group
 * price, the group's state, its members' avatars with the seats being paid for and the empty
 * ones, the time left on the server's clock, and what the visitor can do — join and pay, go on
 * paying, start learning once it is complete, or invite friends with a QR code and a link. An
 * open group refreshes every 10 seconds and when the tab comes back into view.
 */
import { useCallback, useEffect, useState } from "react";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { type GroupDetail, GROUP_PAY_MINUTES } from "../../../shared/contracts/groups";
import { coverSizes } from "../../../shared/media";
import { useRootData } from "../../lib/root-data";
import { LoginDialog } from "../../components/LoginDialog";
import { FormAlert } from "../../components/form/FormAlert";
import { Page } from "../../components/Page";
import { browserApi } from "../../lib/api";
import { LazyImage } from "../../lib/lazy-image";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { useBuyingOff } from "../../components/commerce/payments-mode";
import { GroupAvatar, TimeLeft } from "../../components/groupbuy/group-members";
import { useGroupOrder } from "../../components/groupbuy/use-group-order";
import { formatDateTime } from "../../../shared/format";
import { formatMoney } from "../../../shared/money";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const groupsContract = () => import("../../../shared/contracts/groups");

const REFRESH_MS = 10_000;

export async function loader({ params, env, signal }: PageLoaderArgs) {
  const group = await env.api(`/api/groups/${params.groupNo ?? ""}`, {
    signal,
    schema: groupsContract().then((m) => m.groupDetailSchema),
  });
  return {
    group,
    meta: {
      title: `${group.course.title} · 拼团`,
      description: `拼团价 ${formatMoney(group.course.groupPriceCents)}，${group.groupSize} 人成团。${group.course.subtitle}`,
      noindex: true,
    },
  };
}

/** The group as it is now: the loader's answer, then asked again while it can still change. */
function useLiveGroup(initial: GroupDetail) {
  const [group, setGroup] = useState(initial);
  const live = group.state === "open" || group.state === "forming";
  const refresh = useCallback(() => {
    browserApi(`/api/groups/${group.groupNo}`, { schema: groupsContract().then((m) => m.groupDetailSchema) })
      .then(setGroup)
      .catch(() => {
        // The next refresh tries again; what is shown stays as it was.
      });
  }, [group.groupNo]);
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(refresh, REFRESH_MS);
    const onVisible = () => {
      if (document.visibilityState === "visible") refresh();
    };
    window.addEventListener("focus", refresh);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      clearInterval(timer);
      window.removeEventListener("focus", refresh);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [live, refresh]);
  return group;
}

function CourseCard({ group }: { group: GroupDetail }) {
  const { course } = group;
  const size = coverSizes.landscape;
  return (
    <section className="card pay-card group-course" aria-label="拼团课程">
      <Link to={`/course/${course.id}`} className="group-course__cover">
        <LazyImage src={course.coverUrl} alt={`${course.title}封面`} width={size.width} height={size.height} />
      </Link>
      <div className="group-course__text">
        <Link to={`/course/${course.id}`} className="group-course__title">
          {course.title}
        </Link>
        <p className="group-course__subtitle">{course.subtitle}</p>
        <p className="group-course__meta">共 {course.lessonsCount} 课时 · 成团后全部解锁</p>
        <p className="group-course__prices">
          <span className="group-course__label">拼团价</span>
          <strong className="group-course__price">{formatMoney(course.groupPriceCents)}</strong>
          <del>
            <span className="visually-hidden">单独购买 </span>
            {formatMoney(course.priceCents)}
          </del>
        </p>
      </div>
    </section>
  );
}

const SEALS: Record<GroupDetail["state"], string> = {
  forming: "候",
  open: "拼",
  complete: "成",
  failed: "退",
  abandoned: "止",
};

/** A group still waiting breathes; one that ended without filling up is grey. */
const SEAL_TONES: Record<GroupDetail["state"], string> = {
  forming: " seal--ink pay-result__wait",
  open: "",
  complete: "",
  failed: " seal--muted",
  abandoned: " seal--muted",
};

function StateBanner({ group }: { group: GroupDetail }) {
  const missing = group.groupSize - group.members.length;
  let text: string;
  switch (group.state) {
    case "forming":
      text = `团长付款后正式开团，${group.validHours} 小时内邀请好友参团。`;
      break;
    case "open":
      text = `还差 ${missing} 人成团，凑齐后全员解锁课程；到时未凑齐将自动全额退款。`;
      break;
    case "complete":
      text = `${group.completedAt ? `${formatDateTime(group.completedAt)} ` : ""}已成团，团里每位同学都已解锁课程。`;
      break;
    case "failed":
      text = `已原路退款：没有在时限内凑齐 ${group.groupSize} 人，付款已全额原路退回，用掉的优惠券和金币也已退还。`;
      break;
    case "abandoned":
      text = "团长没有在时限内付款，这个拼团已取消。";
      break;
  }
  return (
    <div className="group-banner" role="status">
      <span className={`seal${SEAL_TONES[group.state]}`} aria-hidden="true">
        {SEALS[group.state]}
      </span>
      <div>
        <h2 className="group-banner__title">{group.stateLabel}</h2>
        <p className="group-banner__text">{text}</p>
      </div>
      {group.state === "open" && group.expiresAt ? (
        <TimeLeft expiresAt={group.expiresAt} serverNow={group.serverNow} label="距结束" />
      ) : null}
    </div>
  );
}

/** One circle per seat: paid members first (the leader marked), then seats being paid for, then empty ones. */
function Seats({ group }: { group: GroupDetail }) {
  const empty = group.state === "open" || group.state === "forming" ? group.seatsLeft : 0;
  return (
    <ol className="group-seats" aria-label={`成员（${group.members.length}/${group.groupSize}）`}>
      {group.members.map((m, i) => (
        <li key={`m${i}`} className={`group-seat${m.refunded ? " is-refunded" : ""}`}>
          <GroupAvatar person={m} />
          {m.leader ? <span className="group-seat__badge">团长</span> : null}
          <span className="group-seat__name">{m.nickname}</span>
          {m.refunded ? <span className="group-seat__note">已退款</span> : null}
        </li>
      ))}
      {Array.from({ length: group.paying }, (_, i) => (
        <li key={`p${i}`} className="group-seat group-seat--paying">
          <span className="group-seat__ring" aria-hidden="true">
            …
          </span>
          <span className="group-seat__name">支付中</span>
        </li>
      ))}
      {Array.from({ length: empty }, (_, i) => (
        <li key={`e${i}`} className="group-seat group-seat--empty">
          <span className="group-seat__ring" aria-hidden="true">
            ?
          </span>
          <span className="group-seat__name">待加入</span>
        </li>
      ))}
    </ol>
  );
}

function Invite({ group }: { group: GroupDetail }) {
  const { publicOrigin } = useRootData();
  const url = `${publicOrigin}/groupbuy/${group.groupNo}`;
  const [copied, setCopied] = useState<boolean | null>(null);
  // The clipboard may be missing (a page not served over HTTPS) or refused: then say so.
  const copy = () => {
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(url))
      .then(
        () => setCopied(true),
        () => setCopied(false),
      );
  };
  return (
    <details className="group-invite">
      <summary className="button group-invite__summary">邀请好友</summary>
      <div className="group-invite__panel">
        <img
          className="group-invite__qr"
          src={`/api/groups/${group.groupNo}/qr.svg`}
          alt="拼团页面二维码"
          width={148}
          height={148}
        />
        <div className="group-invite__text">
          <p>用微信扫一扫，或把链接发给好友：</p>
          <label className="visually-hidden" htmlFor="group-link">
            拼团链接
          </label>
          <input
            id="group-link"
            className="form-field__control group-invite__link"
            value={url}
            readOnly
            onFocus={(e) => e.currentTarget.select()}
          />
          <button type="button" className="button button--small" onClick={copy}>
            复制链接
          </button>
          {copied === true ? (
            <span className="group-invite__done" role="status">
              链接已复制
            </span>
          ) : null}
          {copied === false ? (
            <span className="group-invite__done" role="status">
              无法自动复制，请选中链接后手动复制
            </span>
          ) : null}
        </div>
      </div>
    </details>
  );
}

function Actions({ group }: { group: GroupDetail }) {
  const { viewer: signedIn } = useRootData();
  const order = useGroupOrder();
  const off = useBuyingOff();
  const [loginOpen, setLoginOpen] = useState(false);
  const v = group.viewer;
  const courseLink = `/course/${group.course.id}`;
  const learnLink = group.course.firstLessonId ? `/video/${group.course.firstLessonId}` : courseLink;
  const inGroup = v !== null && (v.isLeader || v.memberState === "paid" || v.memberState === "refunded");
  const buttons = [];
  let note: string | null = null;

  if (v?.payable && v.orderNo) {
    buttons.push(
      <Link key="pay" className="button button--primary" to={`/payment?order=${v.orderNo}`}>
        继续支付 {formatMoney(group.course.groupPriceCents)}
      </Link>,
    );
    note = "名额已为你保留，请在订单时限内完成支付。";
  } else if (group.state === "open" && ((!v && group.joinable) || v?.canJoin)) {
    buttons.push(
      <button
        key="join"
        type="button"
        className="button button--primary"
        disabled={order.busy || !!off}
        onClick={() => (signedIn ? void order.join(group.groupNo) : setLoginOpen(true))}
      >
        {order.busy ? "正在参团…" : `参加拼团 ${formatMoney(group.course.groupPriceCents)}`}
      </button>,
    );
    if (off) note = off;
  } else if (group.state === "complete" && inGroup && v?.memberState === "paid") {
    buttons.push(
      <Link key="learn" className="button button--primary" to={learnLink}>
        去学习
      </Link>,
    );
  } else if (group.state === "failed" && inGroup) {
    buttons.push(
      <Link key="orders" className="button" to="/my/order?state=refund">
        查看退款订单
      </Link>,
    );
  } else if (group.state === "open" && inGroup) {
    note = "你已在团中，邀请好友一起参团吧。";
  } else if (v?.reason) {
    note = v.reason;
  } else if (group.state === "open") {
    note = "名额已满，支付中的同学超时未付款时会空出名额。";
  }
  if (!inGroup && group.state !== "forming") {
    buttons.push(
      <Link key="course" className="button" to={courseLink}>
        {group.state === "open" ? "查看课程" : "查看课程，发起新的拼团"}
      </Link>,
    );
  }

  return (
    <div className="group-actions">
      {note ? <p className="group-actions__note">{note}</p> : null}
      <FormAlert problem={order.problem} />
      <div className="group-actions__buttons">
        {buttons}
        {group.state === "open" ? <Invite group={group} /> : null}
      </div>
      {!signedIn ? <LoginDialog open={loginOpen} onClose={() => setLoginOpen(false)} /> : null}
    </div>
  );
}

function GroupView({ initial }: { initial: GroupDetail }) {
  const group = useLiveGroup(initial);
  return (
    <Page title="拼团" lead={`团号 ${group.groupNo}`}>
      <div className="group-layout">
        <CourseCard group={group} />
        <section className="card pay-card group-status" aria-label="拼团进度">
          <StateBanner group={group} />
          <Seats group={group} />
          <p className="group-status__count">
            {group.members.length}/{group.groupSize} 人已参团
            {group.state === "open" ? ` · 剩余名额 ${group.seatsLeft}` : ""}
            {group.paying > 0 && group.state === "open" ? ` · ${group.paying} 人支付中` : ""}
          </p>
          <Actions group={group} />
        </section>
      </div>
      <section className="card pay-card group-rules" aria-labelledby="group-rules">
        <h2 id="group-rules" className="group-rules__title">
          拼团规则
        </h2>
        <ol>
          <li>
            团长付款后开团，{group.validHours} 小时内凑齐 {group.groupSize} 人即成团，全员自动解锁课程。
          </li>
          <li>参团后请在 {GROUP_PAY_MINUTES} 分钟内付款，超时未付款名额会释放给其他同学。</li>
          <li>团里只有真实付款的学员，不会添加虚拟成员；每位同学在同一活动中只能参加一个团。</li>
          <li>到时未成团，全部款项自动原路退回，使用的优惠券和金币一并退还。</li>
        </ol>
      </section>
    </Page>
  );
}

export default function GroupBuyPage() {
  const { group } = useLoaderData<typeof loader>();
  // A new answer of the loader (another group, a revalidation) starts the view afresh.
  return <GroupView key={`${group.groupNo} ${group.serverNow}`} initial={group} />;
}
