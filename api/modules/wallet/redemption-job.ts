/**
 * The exchange mall's sweep, every 30 s on one node (the job registry claims each period):
 * redemptions a crash left half done are failed and their currency and stock returned, once
 * (sweepStaleRedemptions' compare-and-set); goods shipped AUTO_CONFIRM_DAYS ago count as received.
 */
import type { JobDefinition } from "../../jobs/registry";
import { confirmOverdueDeliveries } from "./delivery";
import { sweepStaleRedemptions } from "./exchange-mall";

export const REDEMPTION_JOB_EVERY_MS = 30_000;

export const redemptionJob: JobDefinition = {
  name: "exchange-redemptions",
  everyMs: REDEMPTION_JOB_EVERY_MS,
  async run(ctx) {
    const returned = await sweepStaleRedemptions(ctx);
    if (returned.length) ctx.logger.info({ returned }, "stale redemptions returned");
    const received = await confirmOverdueDeliveries(ctx);
    return { returned, received };
  },
};
