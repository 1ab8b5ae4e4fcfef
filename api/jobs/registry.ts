/**
 * The one place periodic jobs are scheduled. Every node keeps a timer per job, aligned to the
 * job's period (`floor(now / everyMs) * everyMs`); at each tick a node claims the period by
 * inserting its `job_runs` row (`on conflict do nothing`), and only the node whose insert won
 * runs the job. The row then records how the run ended. A job never overlaps itself within a
 * process; across nodes a run that outlasts its period may meet the next period's run, so the
 * jobs keep their compare-and-set updates.
 */
import { hostname } from "node:os";
import { sql } from "kysely";
import type { ApiContext } from "../context";
import { jobDuration, jobFailures, jobLastSuccess, jobRuns } from "../metrics";

export interface JobDefinition {
  /** Stable name: the `job_runs.job` key, the metric label and the log field. */
  name: string;
  everyMs: number;
  run(ctx: ApiContext): Promise<unknown>;
}

/** What a tick did: ran (ok), ran and failed, found the period claimed by a node, or found the job still running here. */
export type TickOutcome = "ok" | "failed" | "claimed" | "busy";

/** How long `job_runs` rows are kept; each winning tick deletes its job's older rows. */
export const JOB_RUNS_KEEP_MS = 7 * 86_400_000;
const ERROR_MAX = 200;

const definitions = new Map<string, JobDefinition>();

/** Registers a job (the composition root does, once per job; a second registration replaces the first). */
export function registerJob(job: JobDefinition) {
  definitions.set(job.name, job);
}

export function registeredJobs(): JobDefinition[] {
  return [...definitions.values()];
}

export const defaultNode = () => `${hostname()}:${process.pid}`;

export function periodStartOf(at: Date, everyMs: number): Date {
  return new Date(Math.floor(at.getTime() / everyMs) * everyMs);
}

/** A short message for the table: the first line, no details or values a driver may attach. */
function shortError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return (message.split("\n")[0] ?? "").slice(0, ERROR_MAX) || "error";
}

/** Jobs running per context (one context per process outside tests). */
const running = new WeakMap<ApiContext, Set<string>>();

/**
 * One tick of a job: claims the period (of `now`, default the context's clock) and runs the job
 * if this node won it. Tests call it directly with their own clock and node name.
 */
export async function runJobTick(
  ctx: ApiContext,
  job: JobDefinition,
  options: { now?: Date; node?: string } = {},
): Promise<TickOutcome> {
  let busy = running.get(ctx);
  if (!busy) running.set(ctx, (busy = new Set()));
  if (busy.has(job.name)) return "busy";
  busy.add(job.name);
  try {
    return await claimAndRun(ctx, job, options.now ?? ctx.now(), options.node ?? defaultNode());
  } finally {
    busy.delete(job.name);
  }
}

async function claimAndRun(ctx: ApiContext, job: JobDefinition, now: Date, node: string): Promise<TickOutcome> {
  const { db } = ctx.database;
  const periodStart = periodStartOf(now, job.everyMs);
  let claimed: { job: string } | undefined;
  try {
    claimed = await db
      .insertInto("job_runs")
      .values({ job: job.name, period_start: periodStart, node })
      .onConflict((oc) => oc.columns(["job", "period_start"]).doNothing())
      .returning("job")
      .executeTakeFirst();
  } catch (err) {
    jobFailures.inc({ job: job.name });
    ctx.logger.error({ err, job: job.name }, "job could not claim its period");
    return "failed";
  }
  if (!claimed) return "claimed";

  const started = performance.now();
  let error: string | null = null;
  try {
    await job.run(ctx);
  } catch (err) {
    error = shortError(err);
    ctx.logger.error({ err, job: job.name }, "job failed");
  }
  const seconds = (performance.now() - started) / 1000;
  jobRuns.inc({ job: job.name });
  jobDuration.observe({ job: job.name }, seconds);
  if (error) jobFailures.inc({ job: job.name });
  else jobLastSuccess.set({ job: job.name }, Date.now() / 1000);

  try {
    await db
      .updateTable("job_runs")
      .set({ finished_at: sql<Date>`now()`, ok: error === null, error })
      .where("job", "=", job.name)
      .where("period_start", "=", periodStart)
      .execute();
    // Bounded history: the primary key's index makes this a short range delete.
    await db
      .deleteFrom("job_runs")
      .where("job", "=", job.name)
      .where("period_start", "<", new Date(now.getTime() - JOB_RUNS_KEEP_MS))
      .execute();
  } catch (err) {
    ctx.logger.warn({ err, job: job.name }, "job run could not be recorded");
  }
  return error ? "failed" : "ok";
}

export interface JobScheduler {
  /** Stops the timers; resolves when the runs in flight have ended. */
  stop(): Promise<void>;
}

/**
 * Starts a timer per job (registered ones unless given): each fires just after its next period
 * begins, with a little jitter so nodes do not all hit the database at the same instant. Timers
 * never keep the process alive.
 */
export function startJobs(ctx: ApiContext, options: { jobs?: JobDefinition[]; node?: string } = {}): JobScheduler {
  const node = options.node ?? defaultNode();
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;

  const schedule = (job: JobDefinition) => {
    if (stopped) return;
    const nowMs = Date.now();
    const next = periodStartOf(new Date(nowMs), job.everyMs).getTime() + job.everyMs;
    const jitter = Math.random() * Math.min(job.everyMs / 10, 2000);
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        const tick = runJobTick(ctx, job, { node }).catch((err: unknown) =>
          ctx.logger.error({ err, job: job.name }, "job tick failed"),
        );
        inFlight.add(tick);
        void tick.finally(() => inFlight.delete(tick));
        schedule(job);
      },
      next - nowMs + jitter,
    );
    timer.unref();
    timers.add(timer);
  };
  for (const job of options.jobs ?? registeredJobs()) schedule(job);

  return {
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...inFlight]);
    },
  };
}
