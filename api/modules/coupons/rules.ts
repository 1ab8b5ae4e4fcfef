/**
 * Coupon rules: what a template takes off a total (amount off above a threshold, or a percentage),
 * where it applies (everything, or courses / books / stationery, optionally one item), and how it
 * is described to people. Pure functions, shared by the pack, the best-coupon suggestion and
 * order creation, so they always agree.
 */
import type { Selectable } from "kysely";
import { formatYuan } from "../../../shared/money";
import type { CouponTemplatesTable, ItemType } from "../../db/schema";

export type TemplateRow = Selectable<CouponTemplatesTable>;

export function headlineOf(
  t: Pick<TemplateRow, "kind" | "amount_off_cents" | "percent_off" | "threshold_cents">,
): string {
  if (t.kind === "percent") {
    const rate = (100 - t.percent_off) / 10;
    const label = `${Number.isInteger(rate) ? rate : rate.toFixed(1)} 折`;
    return t.threshold_cents > 0 ? `满 ${formatYuan(t.threshold_cents)} 元 ${label}` : label;
  }
  return t.threshold_cents > 0
    ? `满 ${formatYuan(t.threshold_cents)} 减 ${formatYuan(t.amount_off_cents)}`
    : `无门槛减 ${formatYuan(t.amount_off_cents)} 元`;
}

const SCOPE_LABELS: Record<TemplateRow["scope"], string> = {
  all: "全场通用（课程、书籍、文房）",
  course: "课程可用",
  book: "书籍可用",
  commodity: "文房用品可用",
};

export function scopeLabelOf(t: Pick<TemplateRow, "scope" | "scope_ref_id">): string {
  const base = SCOPE_LABELS[t.scope];
  return t.scope_ref_id !== null && t.scope !== "all" ? `指定${base.replace("可用", "")}可用` : base;
}

export function ruleView(t: TemplateRow) {
  return {
    title: t.title,
    kind: t.kind,
    amountOffCents: t.amount_off_cents,
    percentOff: t.percent_off,
    thresholdCents: t.threshold_cents,
    scope: t.scope,
    scopeRefId: t.scope_ref_id,
    headline: headlineOf(t),
    scopeLabel: scopeLabelOf(t),
  };
}

export function appliesTo(t: Pick<TemplateRow, "scope" | "scope_ref_id">, itemType: ItemType, itemId: number): boolean {
  if (t.scope === "all") return true;
  if (t.scope !== itemType) return false;
  return t.scope_ref_id === null || t.scope_ref_id === itemId;
}

/**
 * What the coupon takes off `totalCents` (0 when below its threshold). Never the whole amount:
 * at least 1 分 is left to pay, so every order goes through a payment.
 */
export function discountOf(
  t: Pick<TemplateRow, "kind" | "amount_off_cents" | "percent_off" | "threshold_cents">,
  totalCents: number,
): number {
  if (totalCents <= 1 || totalCents < t.threshold_cents) return 0;
  const raw = t.kind === "percent" ? Math.floor((totalCents * t.percent_off) / 100) : t.amount_off_cents;
  return Math.max(0, Math.min(raw, totalCents - 1));
}

/** When a coupon claimed at `claimedAt` stops being valid: N days after claiming, capped by the template's date. */
export function validUntilFor(t: Pick<TemplateRow, "valid_days" | "valid_until">, claimedAt: Date): Date {
  const byDays = t.valid_days !== null ? new Date(claimedAt.getTime() + t.valid_days * 86_400_000) : null;
  if (byDays && t.valid_until) return byDays < t.valid_until ? byDays : t.valid_until;
  return byDays ?? (t.valid_until as Date);
}
