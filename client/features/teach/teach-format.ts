/** How long work has waited, in the words a teacher reads at a glance. */
export function formatWaiting(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  if (m < 1) return "刚刚提交";
  if (m < 60) return `等待 ${m} 分钟`;
  const hours = m / 60;
  if (hours < 48) return `等待 ${Math.floor(hours)} 小时`;
  return `等待 ${Math.floor(hours / 24)} 天`;
}

/** A median waiting time for the stats ("—" before anything was reviewed). */
export function formatMedianWait(minutes: number | null): string {
  if (minutes === null) return "—";
  const m = Math.max(0, Math.round(minutes));
  if (m < 60) return `${m} 分钟`;
  const hours = m / 60;
  if (hours < 48) return `${Number(hours.toFixed(1))} 小时`;
  return `${Number((hours / 24).toFixed(1))} 天`;
}

/** Work waiting longer than a day is shown as overdue. */
export const OVERDUE_MINUTES = 24 * 60;
