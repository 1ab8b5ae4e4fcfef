/**
 * The operator's dashboard: what came in today (the China day) and what waits for someone —
 * goods to ship (orders and exchange-mall redemptions), returns to review, refunds in progress or refused by the provider, homework in
 * the queues (and how long the oldest has waited), live sessions today, jobs whose latest run failed.
 */
import { chinaDate, chinaDay } from "../../../shared/china-time";
import type { AdminDashboard } from "../../../shared/contracts/admin-orders";
import type { ApiContext } from "../../context";
import { registeredJobs } from "../../jobs/registry";
import { refundFailedFilter } from "./orders-admin";

const num = (v: string | number | bigint | null | undefined) => Number(v ?? 0);

export async function adminDashboard(ctx: ApiContext): Promise<AdminDashboard> {
  const { db } = ctx.database;
  const now = ctx.now();
  const { start, end } = chinaDay(now);
  const [today, paid, toShip, redemptionsToShip, refunds, failed, homework, live, jobs] = await Promise.all([
    db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("created_at", ">=", start)
      .where("created_at", "<", end)
      .executeTakeFirst(),
    // Revenue: what was paid today, less nothing — refunds show in their own figures.
    db
      .selectFrom("orders")
      .select((eb) => [
        eb.fn.countAll<string>().as("n"),
        eb.fn.coalesce(eb.fn.sum<string>("pay_cents"), eb.lit(0)).as("cents"),
      ])
      .where("paid_at", ">=", start)
      .where("paid_at", "<", end)
      .executeTakeFirst(),
    db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("physical", "=", true)
      .where("state", "in", ["awaiting_shipment"])
      .executeTakeFirst(),
    db
      .selectFrom("exchange_redemptions")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("delivery_state", "=", "awaiting_shipment")
      .executeTakeFirst(),
    db
      .selectFrom("refunds")
      .select(["state", (eb) => eb.fn.countAll<string>().as("n")])
      .where("state", "in", ["requested", "processing"])
      .groupBy("state")
      .execute(),
    // Orders whose latest refund the provider refused, with money still to return.
    db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where(refundFailedFilter())
      .where("orders.refunded_cents", "<", (eb) => eb.ref("orders.pay_cents"))
      .executeTakeFirst(),
    db
      .selectFrom("homework_attempts")
      .select((eb) => [eb.fn.countAll<string>().as("n"), eb.fn.min("submitted_at").as("oldest")])
      .where("state", "=", "waiting")
      .executeTakeFirst(),
    db
      .selectFrom("live_sessions")
      .select(["state", (eb) => eb.fn.countAll<string>().as("n")])
      .where("starts_at", ">=", start)
      .where("starts_at", "<", end)
      .where("state", "!=", "cancelled")
      .groupBy("state")
      .execute(),
    latestJobRuns(ctx),
  ]);
  const oldest = homework?.oldest as Date | string | null | undefined;
  return {
    day: chinaDate(now),
    ordersToday: num(today?.n),
    paidToday: num(paid?.n),
    revenueTodayCents: num(paid?.cents),
    toShip: num(toShip?.n),
    redemptionsToShip: num(redemptionsToShip?.n),
    returnsWaiting: num(refunds.find((r) => r.state === "requested")?.n),
    refundsProcessing: num(refunds.find((r) => r.state === "processing")?.n),
    refundsFailed: num(failed?.n),
    homeworkWaiting: num(homework?.n),
    homeworkOldestAt: oldest ? new Date(oldest).toISOString() : null,
    liveToday: live.reduce((sum, r) => sum + num(r.n), 0),
    liveOnAir: num(live.find((r) => r.state === "live")?.n),
    failedJobs: jobs,
    serverNow: now.toISOString(),
  };
}

/** Registered jobs whose latest finished run failed, with how many of their kept runs failed. */
async function latestJobRuns(ctx: ApiContext): Promise<AdminDashboard["failedJobs"]> {
  const names = registeredJobs().map((j) => j.name);
  const { db } = ctx.database;
  let query = db
    .selectFrom("job_runs")
    .select(["job", "started_at", "finished_at", "ok", "error"])
    .where("finished_at", "is not", null);
  if (names.length) query = query.where("job", "in", names);
  const rows = await query.orderBy("started_at", "desc").limit(500).execute();
  const seen = new Map<string, AdminDashboard["failedJobs"][number]>();
  const latestOk = new Map<string, boolean>();
  for (const r of rows) {
    if (!latestOk.has(r.job)) latestOk.set(r.job, r.ok === true);
    if (r.ok === false) {
      const entry = seen.get(r.job);
      if (entry) entry.failedRuns++;
      else
        seen.set(r.job, {
          job: r.job,
          at: (r.finished_at ?? r.started_at).toISOString(),
          error: r.error,
          failedRuns: 1,
        });
    }
  }
  return [...seen.values()].filter((j) => latestOk.get(j.job) === false);
}
