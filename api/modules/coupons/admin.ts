/**
 * The operator's coupon templates: create, edit, retire (no more claims or issues; coupons already
 * held stay valid to their date), and issuing coupons to learners by phone number, e-mail address
 * or account id. An issue is one batch keyed by its Idempotency-Key: a coupon per learner per
 * batch (a unique index), so a repeated or concurrent call gives nobody a second one, and the
 * template's count moves by the number really issued, never past its total.
 */
import type { z } from "zod";
import { emailSchema, phoneSchema } from "../../../shared/contracts/auth";
import type {
  CouponIssueResult,
  CouponTemplateAdmin,
  couponListQuery,
  couponTemplateInputSchema,
} from "../../../shared/contracts/staff-commerce";
import type { ApiContext } from "../../context";
import { ApiError, notFound } from "../../http";
import { iso, listPage } from "../../list-page";
import { notify } from "../../notices";
import { recordAudit } from "../audit/record";
import { changedFields } from "../wallet/mall-admin";
import { headlineOf, ruleView, scopeLabelOf, type TemplateRow, validUntilFor } from "./rules";
import { isIdText } from "../../../shared/ids";

const missing = () => notFound("优惠券模板不存在");
export const NOTICE_COUPON_ISSUED = "coupon_issued";

function viewOf(t: TemplateRow): CouponTemplateAdmin {
  return {
    ...ruleView(t),
    id: t.id,
    headline: headlineOf(t),
    scopeLabel: scopeLabelOf(t),
    validDays: t.valid_days,
    validUntil: iso(t.valid_until),
    totalQuantity: t.total_quantity,
    claimedCount: t.claimed_count,
    perUserLimit: t.per_user_limit,
    claimable: t.claimable,
    retiredAt: iso(t.retired_at),
    createdAt: new Date(t.created_at).toISOString(),
  };
}

export async function listTemplates(ctx: ApiContext, query: z.output<typeof couponListQuery>) {
  let q = ctx.database.db.selectFrom("coupon_templates as t").selectAll("t");
  if (query.status === "active") q = q.where("t.retired_at", "is", null);
  if (query.status === "retired") q = q.where("t.retired_at", "is not", null);
  if (query.q) q = q.where("t.title", "ilike", `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const page = await listPage<TemplateRow>(
    q,
    query,
    { id: "t.id", title: "t.title", claimedCount: "t.claimed_count", createdAt: "t.created_at" },
    "t.id",
    "t.id",
  );
  return { ...page, rows: page.rows.map(viewOf) };
}

export async function template(ctx: ApiContext, id: number): Promise<CouponTemplateAdmin> {
  const row = await ctx.database.db.selectFrom("coupon_templates").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) throw missing();
  return viewOf(row);
}

type Input = z.output<typeof couponTemplateInputSchema>;
const rowOf = (i: Input) => ({
  title: i.title,
  kind: i.kind,
  amount_off_cents: i.kind === "amount" ? i.amountOffCents : 0,
  percent_off: i.kind === "percent" ? i.percentOff : 0,
  threshold_cents: i.thresholdCents,
  scope: i.scope,
  scope_ref_id: i.scope === "all" ? null : i.scopeRefId,
  valid_days: i.validDays,
  valid_until: i.validUntil ? new Date(i.validUntil) : null,
  total_quantity: i.totalQuantity,
  per_user_limit: i.perUserLimit,
  claimable: i.claimable,
});

export async function createTemplate(ctx: ApiContext, actorId: number, input: Input) {
  const id = await ctx.database.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("coupon_templates")
      .values({ ...rowOf(input), created_at: ctx.now() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const after = changedFields({} as Record<string, unknown>, rowOf(input)).after;
    await recordAudit(trx, {
      actorId,
      action: "coupon.template.create",
      targetType: "coupon_template",
      targetId: row.id,
      after,
    });
    return row.id;
  });
  return template(ctx, id);
}

export async function updateTemplate(ctx: ApiContext, actorId: number, id: number, input: Input) {
  await ctx.database.db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom("coupon_templates")
      .selectAll()
      .where("id", "=", id)
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw missing();
    if (current.retired_at) throw new ApiError(409, "coupon_retired", "已停用的优惠券不能再修改");
    const next = rowOf(input);
    if (next.total_quantity !== null && next.total_quantity < current.claimed_count)
      throw new ApiError(409, "quantity_below_claimed", `已发出 ${current.claimed_count} 张，发放总量不能少于此数`);
    const diff = changedFields(current, next);
    if (!diff.changed) return;
    await trx.updateTable("coupon_templates").set(next).where("id", "=", id).execute();
    await recordAudit(trx, {
      actorId,
      action: "coupon.template.update",
      targetType: "coupon_template",
      targetId: id,
      before: diff.before,
      after: diff.after,
    });
  });
  return template(ctx, id);
}

/** Stops a template for good: no more claims or issues. Coupons already held stay valid. */
export async function retireTemplate(ctx: ApiContext, actorId: number, id: number) {
  await ctx.database.db.transaction().execute(async (trx) => {
    const moved = await trx
      .updateTable("coupon_templates")
      .set({ retired_at: ctx.now(), claimable: false })
      .where("id", "=", id)
      .where("retired_at", "is", null)
      .returning("claimable")
      .executeTakeFirst();
    if (!moved) {
      const row = await trx.selectFrom("coupon_templates").select("id").where("id", "=", id).executeTakeFirst();
      if (!row) throw missing();
      throw new ApiError(409, "coupon_retired", "该优惠券已停用");
    }
    await recordAudit(trx, {
      actorId,
      action: "coupon.template.retire",
      targetType: "coupon_template",
      targetId: id,
      before: { retired: false },
      after: { retired: true, claimable: false },
    });
  });
  return template(ctx, id);
}

/** Phone numbers, e-mail addresses and account ids, each checked; what is none of them is unknown. */
function sortRecipients(entries: string[]) {
  const phones = new Map<string, string>();
  const emails = new Map<string, string>();
  const ids = new Map<number, string>();
  const unknown: string[] = [];
  for (const entry of entries) {
    const phone = phoneSchema.safeParse(entry);
    const email = emailSchema.safeParse(entry);
    if (phone.success) phones.set(phone.data, entry);
    else if (email.success) emails.set(email.data, entry);
    else if (isIdText(entry)) ids.set(Number(entry), entry);
    else unknown.push(entry);
  }
  return { phones, emails, ids, unknown };
}

export async function issueCoupons(
  ctx: ApiContext,
  actorId: number,
  templateId: number,
  recipients: string[],
  issueKey: string,
): Promise<CouponIssueResult> {
  const now = ctx.now();
  const { phones, emails, ids, unknown } = sortRecipients(recipients);
  const db = ctx.database.db;
  const users =
    phones.size + emails.size + ids.size === 0
      ? []
      : await db
          .selectFrom("users")
          .select(["id", "phone", "email"])
          .where("status", "=", "active")
          .where((eb) =>
            eb.or([
              ...(phones.size ? [eb("phone", "in", [...phones.keys()])] : []),
              ...(emails.size ? [eb("email", "in", [...emails.keys()])] : []),
              ...(ids.size ? [eb("id", "in", [...ids.keys()])] : []),
            ]),
          )
          .execute();
  for (const [phone, entry] of phones) if (!users.some((u) => u.phone === phone)) unknown.push(entry);
  for (const [email, entry] of emails) if (!users.some((u) => u.email === email)) unknown.push(entry);
  for (const [id, entry] of ids) if (!users.some((u) => u.id === id)) unknown.push(entry);
  const userIds = [...new Set(users.map((u) => u.id))];

  return db.transaction().execute(async (trx) => {
    const t = await trx
      .selectFrom("coupon_templates")
      .selectAll()
      .where("id", "=", templateId)
      .forUpdate()
      .executeTakeFirst();
    if (!t) throw missing();
    if (t.retired_at) throw new ApiError(409, "coupon_retired", "该优惠券已停用，不能再发放");
    if (t.valid_until !== null && t.valid_until <= now)
      throw new ApiError(409, "coupon_ended", "该优惠券已过期，不能再发放");
    const inserted = userIds.length
      ? await trx
          .insertInto("coupons")
          .values(
            userIds.map((userId) => ({
              template_id: templateId,
              user_id: userId,
              source: "grant" as const,
              valid_from: now,
              valid_until: validUntilFor(t, now),
              claimed_at: now,
              issue_key: issueKey,
            })),
          )
          .onConflict((oc) =>
            oc.columns(["template_id", "user_id", "issue_key"]).where("issue_key", "is not", null).doNothing(),
          )
          .returning("user_id")
          .execute()
      : [];
    const issued = inserted.length;
    if (issued > 0) {
      if (t.total_quantity !== null && t.claimed_count + issued > t.total_quantity)
        throw new ApiError(
          409,
          "sold_out",
          `余量不足：还能发 ${Math.max(0, t.total_quantity - t.claimed_count)} 张，本次要发 ${issued} 张`,
        );
      await trx
        .updateTable("coupon_templates")
        .set((eb) => ({ claimed_count: eb("claimed_count", "+", issued) }))
        .where("id", "=", templateId)
        .execute();
      for (const { user_id } of inserted)
        await notify(
          trx,
          user_id,
          NOTICE_COUPON_ISSUED,
          "你收到一张优惠券",
          `“${t.title}”（${headlineOf(t)}）已放入你的卡包。`,
          now,
        );
      await recordAudit(trx, {
        actorId,
        action: "coupon.issue",
        targetType: "coupon_template",
        targetId: templateId,
        before: { claimedCount: t.claimed_count },
        after: { claimedCount: t.claimed_count + issued, issued, userIds: inserted.map((r) => r.user_id).slice(0, 50) },
        reason: `batch ${issueKey}`,
      });
    }
    const already = userIds.length - issued;
    const parts = [`已发放 ${issued} 张`];
    if (already) parts.push(`${already} 人此前已在本批次收到`);
    if (unknown.length) parts.push(`${unknown.length} 个对象未找到账号`);
    return { issued, already, unknown, message: parts.join("，") };
  });
}
