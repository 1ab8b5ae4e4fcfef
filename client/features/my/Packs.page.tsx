/**
 * 我的卡包 (/my/packs?state=): the learner's coupons by tab (可用 / 已使用 / 已过期 / 已退回), each
 * card with its amount, threshold, scope and validity, and the claim centre below (领取). A coupon
 * returned by a cancelled or refunded order is announced once in a dialog.
 */
import { useState } from "react";
import { useLoaderData, useRevalidator } from "react-router-dom";
import { Link } from "../../routing/link";
import { type Coupon, COUPON_TABS, type CouponTab, type CouponTemplate } from "../../../shared/contracts/coupons";
import { formatMoney, formatYuan } from "../../../shared/money";
import { EmptyState } from "../../components/EmptyState";
import { FormAlert } from "../../components/form/FormAlert";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { CouponReturnDialog } from "../../components/commerce/CouponReturnDialog";
import "../../components/commerce/commerce.css";
import { formatDate } from "../../../shared/format";
import { useMutation } from "../../lib/mutation";

export async function loader({ env, signal, request }: PageLoaderArgs) {
  const raw = new URL(request.url).searchParams.get("state") ?? "可用";
  const tab = ((COUPON_TABS as readonly string[]).includes(raw) ? raw : "可用") as CouponTab;
  const [mine, templates] = await Promise.all([
    env.api(`/api/coupons/mine?state=${encodeURIComponent(tab)}`, {
      signal,
      schema: import("../../../shared/contracts/coupons").then((m) => m.couponListSchema),
    }),
    env.api("/api/coupons/templates", {
      signal,
      schema: import("../../../shared/contracts/coupons").then((m) => m.templateListSchema),
    }),
  ]);
  return {
    mine,
    templates: templates.items,
    tab,
    meta: { title: "我的卡包", description: "我的优惠券：可用、已使用、已过期和已退回，以及领券中心。", noindex: true },
  };
}

type Rule = Pick<Coupon, "kind" | "amountOffCents" | "percentOff" | "thresholdCents">;

function CouponValue({ rule }: { rule: Rule }) {
  if (rule.kind === "percent") {
    const rate = (100 - rule.percentOff) / 10;
    return (
      <div className="coupon-card__value">
        <strong>{Number.isInteger(rate) ? rate : rate.toFixed(1)} 折</strong>
        <span>{rule.thresholdCents > 0 ? `满 ${formatYuan(rule.thresholdCents)} 元可用` : "无门槛"}</span>
      </div>
    );
  }
  return (
    <div className="coupon-card__value">
      <strong>{formatMoney(rule.amountOffCents)}</strong>
      <span>{rule.thresholdCents > 0 ? `满 ${formatYuan(rule.thresholdCents)} 元可用` : "无门槛"}</span>
    </div>
  );
}

function CouponCard({ coupon }: { coupon: Coupon }) {
  const usable = coupon.state === "available" || coupon.state === "returned";
  return (
    <li className={`coupon-card${usable ? "" : " coupon-card--off"}`} data-coupon-id={coupon.id}>
      <CouponValue rule={coupon} />
      <div className="coupon-card__body">
        <span className="coupon-card__title">{coupon.title}</span>
        <span>{coupon.headline}</span>
        <span>{coupon.scopeLabel}</span>
        <span>
          有效期 {formatDate(coupon.validFrom)} – {formatDate(coupon.validUntil)}
        </span>
        {coupon.orderNo && coupon.state !== "available" ? (
          <span className="coupon-card__order">
            {coupon.state === "returned" ? "退回自" : "用于"}订单 {coupon.orderNo}
          </span>
        ) : null}
        <div className="coupon-card__foot">
          <span className="coupon-card__tag">{coupon.stateLabel}</span>
          {usable ? (
            <Link
              className="button button--small"
              to={coupon.scope === "book" ? "/books" : coupon.scope === "commodity" ? "/stationery" : "/product/list"}
            >
              去使用
            </Link>
          ) : null}
        </div>
      </div>
    </li>
  );
}

function TemplateCard({ template, onClaimed }: { template: CouponTemplate; onClaimed: () => void }) {
  const { busy, problem, send } = useMutation();
  const [done, setDone] = useState(false);

  const claim = () =>
    send("/api/coupons/claim", {
      body: { templateId: template.id },
      schema: import("../../../shared/contracts/coupons").then((m) => m.claimResultSchema),
      onSuccess: () => {
        setDone(true);
        onClaimed();
      },
    });

  const soldOut = template.remaining === 0;
  const reachedLimit = template.claimedByMe >= template.perUserLimit;
  return (
    <li className={`coupon-card${template.canClaim ? "" : " coupon-card--off"}`} data-template-id={template.id}>
      <CouponValue rule={template} />
      <div className="coupon-card__body">
        <span className="coupon-card__title">{template.title}</span>
        <span>{template.scopeLabel}</span>
        <span>
          {template.validDays ? `领取后 ${template.validDays} 天内有效` : ""}
          {template.validUntil ? `${template.validDays ? "，" : ""}${formatDate(template.validUntil)} 前有效` : ""}
        </span>
        <span>
          每人限领 {template.perUserLimit} 张{template.remaining !== null ? ` · 剩余 ${template.remaining} 张` : ""}
        </span>
        <FormAlert problem={problem} />
        <div className="coupon-card__foot">
          <span className="coupon-card__tag">
            {template.claimedByMe > 0 ? `已领 ${template.claimedByMe} 张` : "可领取"}
          </span>
          <button
            type="button"
            className="button button--primary button--small"
            disabled={busy || soldOut || reachedLimit}
            onClick={claim}
          >
            {busy ? "领取中…" : soldOut ? "已领完" : reachedLimit ? "已领取" : done ? "再领一张" : "领取"}
          </button>
        </div>
      </div>
    </li>
  );
}

const EMPTY_TEXT: Record<CouponTab, string> = {
  可用: "暂时没有可用的优惠券，去下方领券中心看看吧。",
  已使用: "还没有用过优惠券。",
  已过期: "没有过期的优惠券。",
  已退回: "订单取消或退款后，用过的优惠券会退回到这里，有效期内可以继续使用。",
};

export default function PacksPage() {
  const { mine, templates, tab } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  return (
    <Page title="我的卡包">
      <ul className="state-tabs" aria-label="优惠券状态">
        {COUPON_TABS.map((t) => (
          <li key={t}>
            <Link to={`/my/packs?state=${encodeURIComponent(t)}`} aria-current={t === tab ? "page" : undefined}>
              {t}
              <span className="state-tabs__count">{mine.counts[t] ?? 0}</span>
            </Link>
          </li>
        ))}
      </ul>
      {mine.items.length === 0 ? (
        <EmptyState glyph="券" title={`没有${tab}的优惠券`}>
          <p>{EMPTY_TEXT[tab]}</p>
        </EmptyState>
      ) : (
        <ul className="coupon-grid" aria-label={`${tab}的优惠券`}>
          {mine.items.map((c) => (
            <CouponCard key={c.id} coupon={c} />
          ))}
        </ul>
      )}
      <section className="claim-centre" aria-labelledby="claim-centre-title">
        <h2 id="claim-centre-title">领券中心</h2>
        {templates.length === 0 ? (
          <EmptyState glyph="领" title="暂时没有可领取的优惠券">
            <p>新的优惠活动开始后会在这里发放。</p>
          </EmptyState>
        ) : (
          <ul className="coupon-grid">
            {templates.map((t) => (
              <TemplateCard key={t.id} template={t} onClaimed={() => revalidator.revalidate()} />
            ))}
          </ul>
        )}
      </section>
      <CouponReturnDialog />
    </Page>
  );
}
