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

/**
 * `quantity` copies of a book in stock (at least five), bought by the signed-in learner through
 * the API to a new address of theirs and paid through the sandbox's hosted checkout: the order.
 */
export async function bookPaidThroughApi(
  page: Page,
  baseURL: string,
  address: { recipient: string; region: string; detail: string },
  quantity?: number,
): Promise<{ orderNo: string; payCents: number }> {
  const origin = { Origin: baseURL };
  const post = async (path: string, data: unknown = {}) => {
    const res = await page.request.post(path, {
      data,
      headers: { ...origin, "Idempotency-Key": crypto.randomUUID() },
    });
    expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
    return (await res.json()) as Record<string, unknown>;
  };
  const books = (await (await page.request.get("/api/shop/books?pageSize=24")).json()) as {
    items: Array<{ id: number; stock: number }>;
  };
  const book = books.items.find((b) => b.stock >= 5)!;
  const saved = (await post("/api/orders/addresses", { ...address, phone: "13912345678" })) as {
    address: { id: number };
  };
  const { order } = (await post("/api/orders", {
    itemType: "book",
    itemId: book.id,
    quantity,
    addressId: saved.address.id,
  })) as { order: { orderNo: string; payCents: number } };
  const start = (await post(`/api/payments/${order.orderNo}/start`, { method: "sandbox" })) as { redirectUrl: string };
  expect((await page.request.post(`${start.redirectUrl}/approve`, { headers: origin, maxRedirects: 0 })).status()).toBe(
    303,
  );
  return order;
}
