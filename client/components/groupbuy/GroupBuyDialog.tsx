/**
 * The group-buy dialog of the course page: the group price against the price, the size and the
 * time, the rules in two sentences, 发起拼团, and the course's open groups to join. Loaded the
 * first time it opens (decision 050).
 */
import { useEffect, useState } from "react";
import { Link } from "../../routing/link";
import type { CourseDetail } from "../../../shared/contracts/courses";
import { type GroupCampaign, GROUP_PAY_MINUTES, type OpenGroupList } from "../../../shared/contracts/groups";
import { FormAlert } from "../form/FormAlert";
import { describeProblem, type Problem } from "../../lib/problem";
import { browserApi } from "../../lib/api";
import { Modal } from "../../lib/modal";
import { GroupAvatar, TimeLeft } from "./group-members";
import { useGroupOrder } from "./use-group-order";
import { formatMoney } from "../../../shared/money";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const groupsContract = () => import("../../../shared/contracts/groups");

function OpenGroups({ list }: { list: OpenGroupList }) {
  if (list.items.length === 0) {
    return <p className="group-dialog__empty">暂时没有可以参加的团，发起一个，邀请好友来拼吧。</p>;
  }
  return (
    <ul className="group-dialog__groups">
      {list.items.map((g) => (
        <li key={g.groupNo}>
          <Link className="group-row" to={`/groupbuy/${g.groupNo}`}>
            <GroupAvatar person={g.leader} size={36} />
            <span className="group-row__who">
              <span className="group-row__name">{g.leader.nickname} 的团</span>
              <span className="group-row__seats">
                还差 <strong>{g.seatsLeft}</strong> 人成团
              </span>
            </span>
            <TimeLeft expiresAt={g.expiresAt} serverNow={list.serverNow} label="剩余" />
            <span className="button button--small">{g.mine ? "查看" : "去参团"}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function GroupBuyDialog({
  course,
  campaign,
  open,
  onClose,
}: {
  course: CourseDetail;
  campaign: GroupCampaign;
  open: boolean;
  onClose: () => void;
}) {
  const order = useGroupOrder();
  const [list, setList] = useState<OpenGroupList | null>(null);
  const [loadProblem, setLoadProblem] = useState<Problem | null>(null);

  useEffect(() => {
    if (!open) return;
    let live = true;
    setList(null);
    setLoadProblem(null);
    browserApi(`/api/groups?courseId=${course.id}`, { schema: groupsContract().then((m) => m.openGroupListSchema) })
      .then((res) => {
        if (live) setList(res);
      })
      .catch((err: unknown) => {
        if (live) setLoadProblem(describeProblem(err));
      });
    return () => {
      live = false;
    };
  }, [open, course.id]);

  const saving = course.priceCents - campaign.groupPriceCents;
  return (
    <Modal open={open} onClose={onClose} title="拼团购买" className="group-dialog">
      <div className="group-dialog__offer">
        <p className="group-dialog__prices">
          <span className="group-dialog__label">拼团价</span>
          <strong className="group-dialog__price">{formatMoney(campaign.groupPriceCents)}</strong>
          <del className="group-dialog__was">
            <span className="visually-hidden">单独购买 </span>
            {formatMoney(course.priceCents)}
          </del>
          {saving > 0 ? <span className="group-dialog__save">省 {formatMoney(saving)}</span> : null}
        </p>
        <p className="group-dialog__facts">
          {campaign.groupSize} 人成团 · 开团后 {campaign.validHours} 小时内有效 · 《{course.title}》
        </p>
      </div>
      <p className="group-dialog__rules">
        发起后 {GROUP_PAY_MINUTES} 分钟内付款即开团，{campaign.validHours} 小时内凑齐 {campaign.groupSize}{" "}
        人就成团，全员解锁课程。团里只有真实学员，到时未凑齐会自动全额原路退款，用掉的优惠券和金币一并退回。
      </p>
      <FormAlert problem={order.problem} />
      <div className="form__actions group-dialog__actions">
        <button type="button" className="button" onClick={onClose}>
          再想想
        </button>
        <button
          type="button"
          className="button button--primary"
          disabled={order.busy}
          onClick={() => void order.start(campaign.campaignId)}
        >
          {order.busy ? "正在发起…" : `发起拼团 ${formatMoney(campaign.groupPriceCents)}`}
        </button>
      </div>
      <section className="group-dialog__open" aria-labelledby="group-dialog-open">
        <h3 id="group-dialog-open" className="group-dialog__heading">
          正在拼的团，可以直接参加
        </h3>
        <FormAlert problem={loadProblem} />
        {list ? <OpenGroups list={list} /> : loadProblem ? null : <p role="status">正在加载…</p>}
      </section>
    </Modal>
  );
}
