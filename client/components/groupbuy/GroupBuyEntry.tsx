/**
 * Group buying on the course page: the 拼团购买 button (with the group price) when the course has
 * a running campaign, and its dialog — the group price against the price, the size and the
 * time, the rules in two sentences, 发起拼团, and the course's open groups to join. A visitor
 * signs in first.
 */
import { useState } from "react";
import type { CourseDetail } from "../../../shared/contracts/courses";
import { useRootData } from "../../lib/root-data";
import { lazyDialog } from "../../lib/lazy-dialog";
import { LoginDialog } from "../LoginDialog";
import { useBuyingOff } from "../commerce/payments-mode";
import { formatMoney } from "../../../shared/money";

// The dialog loads the first time it opens, or ahead of a click on hover or focus (decision 050).
const groupBuy = lazyDialog(() => import("./GroupBuyDialog").then((m) => m.GroupBuyDialog));

export function GroupBuyEntry({ course }: { course: CourseDetail }) {
  const { viewer } = useRootData();
  const [open, setOpen] = useState(false);
  const [loginOpen, setLoginOpen] = useState(false);
  const off = useBuyingOff();
  const campaign = course.groupBuy;
  if (!campaign) return null;
  return (
    <>
      <button
        type="button"
        className="button course-hero__cta group-entry"
        onClick={() => (viewer ? setOpen(true) : setLoginOpen(true))}
        onPointerEnter={viewer ? groupBuy.preload : undefined}
        onFocus={viewer ? groupBuy.preload : undefined}
        disabled={!!off}
        title={off ?? undefined}
      >
        拼团购买 <span className="group-entry__price">{formatMoney(campaign.groupPriceCents)}</span>
      </button>
      {viewer ? (
        <groupBuy.Dialog course={course} campaign={campaign} open={open} onClose={() => setOpen(false)} />
      ) : (
        <LoginDialog open={loginOpen} onClose={() => setLoginOpen(false)} />
      )}
    </>
  );
}
