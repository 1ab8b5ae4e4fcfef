/**
 * Practice in a real browser: a new learner traces a character in quiz mode at /calmness with
 * simulated pen strokes (along the character's own stroke medians), and today's diary then shows
 * the minutes and the character, with today's cell lit in the heat map; the learning calendar
 * shows a live lesson they booked (with the room's link), and the private feed address downloads
 * a calendar that holds it.
 */
import { mkdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { chinaDate } from "../../shared/china-time";
import { expect, test, waitForHydration } from "./fixtures";
import { payInSandbox } from "./checkout";
import { newLearnerAt } from "./login-helpers";

const SHOTS = "test-results/shots-practice";
mkdirSync(SHOTS, { recursive: true });

/** Draws every stroke of the character along its medians, the way a pen would. */
async function writeCharacter(page: Page, char: string) {
  const res = await page.request.get(`/api/practice/strokes/${encodeURIComponent(char)}`);
  expect(res.status()).toBe(200);
  const { medians } = (await res.json()) as { medians: Array<Array<[number, number]>> };
  const box = (await page.getByTestId("trainer-writer").boundingBox())!;
  // hanzi-writer's positioning: a 1024-unit box (y up, baseline at -124) scaled into the padded square.
  const size = 320;
  const padding = 16;
  const scale = (size - 2 * padding) / 1024;
  const toScreen = ([x, y]: [number, number]) => ({
    x: box.x + padding + x * scale,
    y: box.y + size - (124 * scale + padding) - y * scale,
  });
  for (const median of medians) {
    const points = median.map(toScreen);
    await page.mouse.move(points[0]!.x, points[0]!.y);
    await page.mouse.down();
    for (let i = 1; i < points.length; i++) {
      const a = points[i - 1]!;
      const b = points[i]!;
      for (let s = 1; s <= 4; s++) await page.mouse.move(a.x + ((b.x - a.x) * s) / 4, a.y + ((b.y - a.y) * s) / 4);
    }
    await page.mouse.up();
    await page.waitForTimeout(150);
  }
}

test("a character traced in quiz mode counts into today's diary and lights today in the heat map", async ({
  page,
  consoleErrors,
}) => {
  await newLearnerAt(page, "/calmness", "15");
  const trainer = page.getByTestId("trainer");
  await expect(page.getByRole("heading", { name: /千字文 · 范字 \d+ 个/ })).toBeVisible();

  // Pick a character by typing it, then the stroke quiz.
  await page.getByRole("tab", { name: "自己输入" }).click();
  await page.getByRole("textbox", { name: "要练的字", exact: true }).fill("永");
  await page.getByRole("button", { name: "练这个字" }).click();
  const writer = page.getByTestId("trainer-writer");
  await expect(writer).toHaveAttribute("data-char", "永");
  await expect(writer).toHaveAttribute("data-status", "ready");
  await trainer.getByRole("button", { name: "默写测验" }).click();
  await page.waitForTimeout(300);
  await writer.scrollIntoViewIfNeeded();

  // A wrong stroke first (a vertical line where the dot goes): counted as a mistake, not accepted.
  const box = (await writer.boundingBox())!;
  await page.mouse.move(box.x + 40, box.y + 300);
  await page.mouse.down();
  await page.mouse.move(box.x + 300, box.y + 40, { steps: 8 });
  await page.mouse.up();
  await expect(trainer.getByText("已错 1 笔")).toBeVisible();

  await writeCharacter(page, "永");
  await expect(writer).toHaveAttribute("data-done", "1");
  await expect(page.getByTestId("trainer-message")).toContainText("「永」已记入今天的日记");
  await page.screenshot({ path: `${SHOTS}/calmness.png`, fullPage: true });

  await page.goto("/my/dairy");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1, name: "练字日记" })).toBeVisible();
  await expect(page.getByTestId("diary-traced")).toContainText("静心习字已记 1 分钟：永");
  await expect(page.getByTestId("total-minutes")).toContainText("1");
  await expect(page.getByTestId("streak-current")).toContainText("1");
  const today = chinaDate(new Date());
  const cell = page.locator(`[data-testid="heat-map"] rect[data-date="${today}"]`);
  await expect(cell).toHaveAttribute("data-minutes", "1");
  await expect(cell).toHaveClass(/heat__cell--1/);
  await expect(page.locator(".diary-entry").first()).toContainText("永");

  // Writing the rest of the entry by hand keeps the traced minutes beside the learner's own.
  await page.getByRole("spinbutton", { name: "另外练了多少分钟" }).fill("30");
  await page.getByRole("textbox", { name: "练了哪些字" }).fill("永和九年");
  await page.getByRole("button", { name: "保存修改" }).click();
  await expect(page.getByRole("status").filter({ hasText: "日记已保存" })).toBeVisible();
  await expect(page.getByTestId("total-minutes")).toContainText("31");
  await expect(cell).toHaveAttribute("data-minutes", "31");
  await page.screenshot({ path: `${SHOTS}/dairy.png`, fullPage: true });
  expect(consoleErrors).toEqual([]);
});

test("the calendar shows a booked live lesson, and the feed address downloads a calendar with it", async ({
  page,
  consoleErrors,
  baseURL,
}) => {
  await newLearnerAt(page, "/my/calendar", "15");
  // Buy the course of a lesson that has not started yet (sandbox checkout), then book the lesson.
  const list = await (await page.request.get("/api/live?tab=upcoming")).json();
  const session = (
    list.items as Array<{ id: number; title: string; startsAt: string; state: string; courseId: number | null }>
  ).find((s) => s.courseId !== null && s.state === "scheduled");
  expect(session, "the demo schedule has an upcoming course lesson").toBeDefined();
  const order = await page.request.post("/api/orders", {
    data: { itemType: "course", itemId: session!.courseId },
    headers: { Origin: baseURL!, "Idempotency-Key": crypto.randomUUID() },
  });
  expect(order.status()).toBe(201);
  const { order: created } = (await order.json()) as { order: { orderNo: string } };
  await page.goto(`/payment?order=${created.orderNo}`);
  await payInSandbox(page);
  const booked = await page.request.post(`/api/live/${session!.id}/booking`, {
    data: {},
    headers: { Origin: baseURL! },
  });
  expect(booked.status()).toBe(200);

  const date = chinaDate(session!.startsAt);
  await page.goto(`/my/calendar?month=${date.slice(0, 7)}`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1, name: "学习日历" })).toBeVisible();
  await page.locator(`.cal-day[data-date="${date}"]`).click();
  const day = page.getByTestId("day-list");
  await expect(day.getByRole("heading", { name: date })).toBeVisible();
  const link = day.getByRole("link", { name: new RegExp(`直播：${session!.title}`) });
  await expect(link).toHaveAttribute("href", `/live/${session!.id}`);
  await expect(link).toContainText("已预约");

  await page.screenshot({ path: `${SHOTS}/calendar-month.png`, fullPage: true });
  await page.getByRole("button", { name: "列表" }).click();
  await expect(page.locator(".cal-list")).toContainText(session!.title);
  await page.screenshot({ path: `${SHOTS}/calendar.png`, fullPage: true });

  // The private feed: turn it on, copy its address, download it.
  await page.getByRole("button", { name: "开启日历订阅" }).click();
  const address = page.getByRole("textbox", { name: "日历订阅地址" });
  await expect(address).toHaveValue(/\/api\/practice\/feed\/[A-Za-z0-9_-]{32}\.ics$/);
  const url = await address.inputValue();
  const ics = await page.request.get(url);
  expect(ics.status()).toBe(200);
  expect(ics.headers()["content-type"]).toMatch(/^text\/calendar/);
  const text = await ics.text();
  expect(text).toMatch(/^BEGIN:VCALENDAR/);
  expect(text).toContain(`UID:live-${session!.id}@`);
  expect(text).toContain("TRIGGER:-PT15M");
  expect(text.replace(/\r\n[ \t]/g, "")).toContain(`SUMMARY:直播：${session!.title}`);
  // Reset: the copied address stops working.
  await page.getByRole("button", { name: "重置地址" }).click();
  await expect(address).not.toHaveValue(url);
  expect((await page.request.get(url)).status()).toBe(404);
  expect(consoleErrors).toEqual([]);
});

test("/calmness does not shift while the trainer and the sheets load", async ({ page }) => {
  // Tall enough that the whole first screen of content (trainer, sheets, gallery, footer) is in view.
  await page.setViewportSize({ width: 1280, height: 3400 });
  await page.addInitScript(() => {
    (window as unknown as { __cls: number }).__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) (window as unknown as { __cls: number }).__cls += entry.value;
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  await page.goto("/calmness");
  await waitForHydration(page);
  await expect.poll(() => page.locator(".practice-card").count()).toBeGreaterThanOrEqual(24);
  await expect(page.getByTestId("trainer-writer")).toHaveAttribute("data-status", "ready");
  await page.waitForTimeout(500);
  const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
  console.log(`CLS on /calmness: ${cls.toFixed(4)}`);
  expect(cls).toBeLessThan(0.05);
});
