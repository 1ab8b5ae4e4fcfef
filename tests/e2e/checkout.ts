import type { Page } from "@playwright/test";
import { expect, waitForHydration } from "./fixtures";

/**
 * From /payment?order=… through the sandbox's hosted checkout (同意付款) to the payment result;
 * `onPayment` can look at the payment page first. Returns the order number.
 */
export async function payInSandbox(page: Page, onPayment?: (orderNo: string) => Promise<void>): Promise<string> {
  await page.waitForURL(/\/payment\?order=M\d{20}$/);
  await waitForHydration(page);
  const orderNo = new URL(page.url()).searchParams.get("order")!;
  await expect(page.getByText(`订单号 ${orderNo}`)).toBeVisible();
  await onPayment?.(orderNo);
  await page.getByRole("button", { name: /^立即支付/ }).click();
  await page.waitForURL(/\/api\/payments\/sandbox\/checkout\//);
  await page.getByRole("button", { name: "同意付款", exact: true }).click();
  await page.waitForURL(`**/payment/success?order=${orderNo}`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "支付成功" })).toBeVisible({ timeout: 15_000 });
  return orderNo;
}
