/**
 * The operator's group-buy campaigns: create, edit and end. A group copies its size when it is
 * started, so editing a campaign changes the groups started after it; ending one stops new groups
 * at once (it is no longer the course's running campaign) while groups already open run to their
 * own deadline, as the group rules (decision 011) say.
 */
import type { z } from "zod";
import type { CampaignAdmin, campaignInputSchema, campaignListQuery } from "../../../shared/contracts/staff-commerce";
import type { ApiContext } from "../../context";
import { ApiError, notFound } from "../../http";
import { listPage } from "../../list-page";
import { recordAudit } from "../audit/record";
import { changedFields } from "../wallet/mall-admin";

const missing = () => notFound("拼团活动不存在");
const STATUS_LABELS = { upcoming: "未开始", running: "进行中", ended: "已结束" } as const;

interface Row {
  id: number;
  course_id: number;
  course_title: string;
  group_size: number;
  group_price_cents: number;
  valid_hours: number;
  starts_at: Date;
  ends_at: Date;
  active: boolean;
  groups_open: string | number | null;
  groups_complete: string | number | null;
}

function viewOf(r: Row, now: Date): CampaignAdmin {
  const status = !r.active || r.ends_at <= now ? "ended" : r.starts_at > now ? "upcoming" : "running";
  return {
    id: r.id,
    courseId: r.course_id,
    courseTitle: r.course_title,
    groupSize: r.group_size,
    groupPriceCents: r.group_price_cents,
    validHours: r.valid_hours,
    startsAt: new Date(r.starts_at).toISOString(),
    endsAt: new Date(r.ends_at).toISOString(),
    active: r.active,
    status,
    statusLabel: STATUS_LABELS[status],
    groupsOpen: Number(r.groups_open ?? 0),
    groupsComplete: Number(r.groups_complete ?? 0),
  };
}

function campaignQuery(ctx: ApiContext) {
  return ctx.database.db
    .selectFrom("group_campaigns as g")
    .innerJoin("courses as c", "c.id", "g.course_id")
    .select([
      "g.id",
      "g.course_id",
      "c.title as course_title",
      "g.group_size",
      "g.group_price_cents",
      "g.valid_hours",
      "g.starts_at",
      "g.ends_at",
      "g.active",
    ])
    .select((eb) => [
      eb
        .selectFrom("groups as gr")
        .select(eb.fn.countAll<string>().as("n"))
        .whereRef("gr.campaign_id", "=", "g.id")
        .where("gr.state", "in", ["forming", "open"])
        .as("groups_open"),
      eb
        .selectFrom("groups as gr")
        .select(eb.fn.countAll<string>().as("n"))
        .whereRef("gr.campaign_id", "=", "g.id")
        .where("gr.state", "=", "complete")
        .as("groups_complete"),
    ]);
}

export async function listCampaigns(ctx: ApiContext, query: z.output<typeof campaignListQuery>) {
  const now = ctx.now();
  let q = campaignQuery(ctx);
  if (query.status === "ended") q = q.where((eb) => eb.or([eb("g.active", "=", false), eb("g.ends_at", "<=", now)]));
  if (query.status === "running")
    q = q.where("g.active", "=", true).where("g.starts_at", "<=", now).where("g.ends_at", ">", now);
  if (query.status === "upcoming") q = q.where("g.active", "=", true).where("g.starts_at", ">", now);
  if (query.q) {
    const like = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb("c.title", "ilike", like),
        ...(/^\d{1,9}$/.test(query.q ?? "") ? [eb("g.course_id", "=", Number(query.q))] : []),
      ]),
    );
  }
  const page = await listPage<Row>(
    q,
    query,
    { id: "g.id", course: "c.title", startsAt: "g.starts_at", endsAt: "g.ends_at", price: "g.group_price_cents" },
    "g.id",
    "g.id",
  );
  return { ...page, rows: page.rows.map((r) => viewOf(r, now)) };
}

export async function campaign(ctx: ApiContext, id: number): Promise<CampaignAdmin> {
  const row = await campaignQuery(ctx).where("g.id", "=", id).executeTakeFirst();
  if (!row) throw missing();
  return viewOf(row, ctx.now());
}

type Input = z.output<typeof campaignInputSchema>;
const rowOf = (i: Input) => ({
  course_id: i.courseId,
  group_size: i.groupSize,
  group_price_cents: i.groupPriceCents,
  valid_hours: i.validHours,
  starts_at: new Date(i.startsAt),
  ends_at: new Date(i.endsAt),
});

async function checkCourse(ctx: ApiContext, courseId: number, priceCents: number) {
  const course = await ctx.database.db
    .selectFrom("courses")
    .select(["id", "price_cents"])
    .where("id", "=", courseId)
    .executeTakeFirst();
  if (!course)
    throw new ApiError(400, "invalid_input", `课程（编号 ${courseId}）不存在`, { fields: { courseId: "课程不存在" } });
  if (priceCents >= course.price_cents)
    throw new ApiError(400, "invalid_input", "拼团价应低于课程原价", {
      fields: { groupPriceCents: "拼团价应低于课程原价" },
    });
}

export async function createCampaign(ctx: ApiContext, actorId: number, input: Input) {
  await checkCourse(ctx, input.courseId, input.groupPriceCents);
  const id = await ctx.database.db.transaction().execute(async (trx) => {
    const row = await trx.insertInto("group_campaigns").values(rowOf(input)).returning("id").executeTakeFirstOrThrow();
    await recordAudit(trx, {
      actorId,
      action: "campaign.create",
      targetType: "group_campaign",
      targetId: row.id,
      after: changedFields({} as Record<string, unknown>, rowOf(input)).after,
    });
    return row.id;
  });
  return campaign(ctx, id);
}

export async function updateCampaign(ctx: ApiContext, actorId: number, id: number, input: Input) {
  await checkCourse(ctx, input.courseId, input.groupPriceCents);
  await ctx.database.db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom("group_campaigns")
      .selectAll()
      .where("id", "=", id)
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw missing();
    if (!current.active) throw new ApiError(409, "campaign_ended", "已结束的拼团活动不能再修改");
    const next = rowOf(input);
    const diff = changedFields(current, next);
    if (!diff.changed) return;
    await trx.updateTable("group_campaigns").set(next).where("id", "=", id).execute();
    await recordAudit(trx, {
      actorId,
      action: "campaign.update",
      targetType: "group_campaign",
      targetId: id,
      before: diff.before,
      after: diff.after,
    });
  });
  return campaign(ctx, id);
}

/** Ends a campaign now: no new groups; open groups keep their own deadline. */
export async function endCampaign(ctx: ApiContext, actorId: number, id: number) {
  const now = ctx.now();
  await ctx.database.db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom("group_campaigns")
      .selectAll()
      .where("id", "=", id)
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw missing();
    if (!current.active) throw new ApiError(409, "campaign_ended", "该拼团活动已结束");
    const endsAt = current.ends_at < now ? current.ends_at : now;
    await trx.updateTable("group_campaigns").set({ active: false, ends_at: endsAt }).where("id", "=", id).execute();
    await recordAudit(trx, {
      actorId,
      action: "campaign.end",
      targetType: "group_campaign",
      targetId: id,
      before: { active: true, endsAt: current.ends_at.toISOString() },
      after: { active: false, endsAt: endsAt.toISOString() },
    });
  });
  return campaign(ctx, id);
}
