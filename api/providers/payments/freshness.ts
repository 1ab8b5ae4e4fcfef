/**
 * Payment notifications are accepted only while fresh: sent at most 5 minutes before (or after,
 * for a clock ahead of ours) the moment we receive them, as WeChat Pay and Alipay check their own
 * requests. A captured notification replayed later is refused even though its signature holds;
 * the gateways sign every retry anew, so a genuine late retry still gets through.
 */
const NOTIFICATION_FRESH_SECONDS = 300;

/** Whether a notification sent at `sentAtMs` (epoch ms, NaN when unreadable) is fresh at `now`. */
export function isFreshNotification(sentAtMs: number, now: Date): boolean {
  return Number.isFinite(sentAtMs) && Math.abs(now.getTime() - sentAtMs) <= NOTIFICATION_FRESH_SECONDS * 1000;
}
