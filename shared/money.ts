/** Money is integer cents (分) everywhere; these only format it for people. */

/** 19900 → "199", 1990 → "19.9", 1999 → "19.99". */
export function formatYuan(cents: number): string {
  const yuan = cents / 100;
  return Number.isInteger(yuan) ? String(yuan) : yuan.toFixed(2).replace(/0$/, "");
}

/** "¥199", "¥19.9", "¥0": an amount of money as a learner reads it. */
export function formatMoney(cents: number): string {
  return `¥${formatYuan(cents)}`;
}

/** "¥199" or "免费" for a zero price. */
export function priceLabel(cents: number): string {
  return cents === 0 ? "免费" : formatMoney(cents);
}
