/**
 * Live lessons in the browser: the schedule's tabs and cards, and the room of today's open
 * class (live since the demo catalogue was seeded) with two signed-in learners: chat both ways
 * over the event stream, markup shown as text, the online count, the live stream playing and
 * check-in once.
 */
import type { Browser, Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";
import { freshPhone, loadedAgain, openLoginDialog, phoneLogin, skipCompleteInfo } from "./login-helpers";

const SHOTS = "test-results/shots-live";

async function openClassId(page: Page): Promise<number> {
  const res = await page.request.get("/api/live?tab=live");
  const body = (await res.json()) as { items: Array<{ id: number; isOpen: boolean; title: string }> };
  const open = body.items.find((i) => i.isOpen);
  expect(open, "the seeded open class is live").toBeTruthy();
  return open!.id;
}

/** A new learner signed in by phone code in `page` (complete info skipped). */
async function signIn(page: Page) {
  await page.goto("/live");
  await waitForHydration(page);
  const phone = freshPhone("15");
  await phoneLogin(page, await openLoginDialog(page), phone);
  await skipCompleteInfo(page);
  return `墨友${phone.slice(-4)}`;
}

async function secondLearner(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL, locale: "zh-CN", timezoneId: "Asia/Shanghai" });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  return { context, page, errors };
}

test("/live shows the tabs, the open class live now with its room link, and Event data", async ({
  page,
  consoleErrors,
}) => {
  await page.goto("/live?tab=live");
  await waitForHydration(page);
  const tabs = page.getByRole("navigation", { name: "直播分类" });
  await expect(tabs.getByRole("link")).toHaveText(["今日", "即将开始", "直播中", "已结束"]);
  await expect(tabs.getByRole("link", { name: "直播中" })).toHaveAttribute("aria-current", "page");

  const card = page.locator("article.catalogue-card--live", { hasText: "写字诊断 · 今日连线" });
  await expect(card).toBeVisible();
  await expect(card.locator(".live-state")).toHaveText("直播中");
  const enter = card.getByRole("link", { name: "进入直播间" });
  await expect(enter).toHaveAttribute("target", "_blank");
  const id = await openClassId(page);
  await expect(enter).toHaveAttribute("href", `/live/${id}`);

  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
  const events = (jsonLd["@graph"] ?? [jsonLd]) as Array<Record<string, unknown>>;
  const event = events.find((e) => e.name === "写字诊断 · 今日连线")!;
  expect(event["@type"]).toBe("Event");
  expect(event.eventAttendanceMode).toBe("https://schema.org/OnlineEventAttendanceMode");
  expect((event.location as { url: string }).url).toMatch(new RegExp(`/live/${id}$`));
  await page.screenshot({ path: `${SHOTS}/live-tab-live.png`, fullPage: true });

  // Another tab, through the client router: upcoming sessions offer booking; anonymous visitors sign in first.
  await tabs.getByRole("link", { name: "即将开始" }).click();
  await expect(page).toHaveURL(/\/live\?tab=upcoming$/);
  await expect(tabs.getByRole("link", { name: "即将开始" })).toHaveAttribute("aria-current", "page");
  const cancelled = page.locator("article.catalogue-card--live", { hasText: "第六讲（改期）" });
  await expect(cancelled.locator(".live-state")).toHaveText("已取消");
  const upcoming = page.locator("article.catalogue-card--scheduled").first();
  await upcoming.getByRole("button", { name: /^预约「/ }).click();
  await expect(page.getByRole("dialog", { name: "登录墨池课堂" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/live-tab-upcoming-login.png` });
  expect(consoleErrors).toEqual([]);
});

test("booking: a learner without the course is told why; a host books, and the card remembers it", async ({
  page,
  consoleErrors,
}) => {
  await signIn(page);
  const res = await page.request.get("/api/live?tab=upcoming");
  const items = ((await res.json()) as { items: Array<{ id: number; title: string; state: string }> }).items;
  const first = items.find((i) => i.state === "scheduled")!;
  await page.goto("/live?tab=upcoming");
  await waitForHydration(page);
  const card = page.locator("article.catalogue-card--live", { hasText: first.title });
  // Not offered as if it could succeed: disabled, with the rule's reason beside it.
  await expect(card.getByRole("button", { name: `预约「${first.title}」` })).toBeDisabled();
  await expect(card.locator(".action-reason")).toHaveText(/^报名《.+》后才能预约这场直播$/);
  await page.screenshot({ path: `${SHOTS}/live-booking-refused.png` });

  // The operator may enter every room: book, see it after a reload, cancel.
  await page.context().clearCookies();
  await page.goto("/live?tab=upcoming");
  await waitForHydration(page);
  const dialog = await openLoginDialog(page);
  await dialog.getByRole("tab", { name: "邮箱" }).click();
  await dialog.getByRole("textbox", { name: "邮箱" }).fill("operator@mochi.local");
  await dialog.getByLabel("密码", { exact: true }).fill("Mochi-operator-2026");
  await dialog.getByRole("button", { name: "登录", exact: true }).click();
  const info = page.getByRole("dialog", { name: "完善资料" });
  await Promise.race([
    info.waitFor().then(() => info.getByRole("button", { name: "跳过" }).click()),
    loadedAgain(page),
  ]);
  await loadedAgain(page);
  const hostCard = page.locator("article.catalogue-card--live", { hasText: first.title });
  await hostCard.getByRole("button", { name: `预约「${first.title}」` }).click();
  await expect(hostCard.getByRole("button", { name: `已预约「${first.title}」，点击取消预约` })).toBeVisible();
  await page.reload();
  await waitForHydration(page);
  const booked = page.locator("article.catalogue-card--live", { hasText: first.title }).getByRole("button", {
    name: `已预约「${first.title}」，点击取消预约`,
  });
  await expect(booked).toHaveAttribute("aria-pressed", "true");
  await page.screenshot({ path: `${SHOTS}/live-booked.png` });
  await booked.click();
  await expect(
    page
      .locator("article.catalogue-card--live", { hasText: first.title })
      .getByRole("button", { name: `预约「${first.title}」` }),
  ).toBeVisible();
  expect(
    consoleErrors.filter((e) => e !== "Failed to load resource: the server responded with a status of 403 (Forbidden)"),
  ).toEqual([]);
});

test("two learners chat in the open class both ways, watch the stream and check in once", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  test.setTimeout(120_000);
  const nameA = await signIn(page);
  const other = await secondLearner(browser, baseURL);
  const nameB = await signIn(other.page);
  const id = await openClassId(page);

  for (const p of [page, other.page]) {
    await p.goto(`/live/${id}`);
    await waitForHydration(p);
    await expect(p.getByTestId("live-state")).toHaveText("直播中");
    await expect(p.getByLabel("发言")).toBeEnabled();
  }
  await expect(page.getByTestId("live-online")).toHaveText("在线 2 人");
  await expect(other.page.getByTestId("live-online")).toHaveText("在线 2 人");

  // A → B, sent with Enter.
  const fromA = `甲同学：横画起笔要逆锋吗？${Date.now()}`;
  await page.getByLabel("发言").fill(fromA);
  await page.getByLabel("发言").press("Enter");
  await expect(page.getByLabel("发言")).toHaveValue("");
  await expect(page.getByTestId("chat-message").filter({ hasText: fromA })).toContainText(`${nameA}（我）`);
  await expect(other.page.getByTestId("chat-message").filter({ hasText: fromA })).toContainText(nameA);
  await expect(other.page.getByTestId("chat-message").filter({ hasText: fromA })).not.toContainText("（我）");

  // B → A, with markup that must stay text.
  const fromB = `<b>乙同学</b>：要逆锋，藏锋入笔 ${Date.now()}`;
  await other.page.getByLabel("发言").fill(fromB);
  await other.page.getByRole("button", { name: "发送" }).click();
  const seenByA = page.getByTestId("chat-message").filter({ hasText: fromB });
  await expect(seenByA).toContainText(nameB);
  await expect(seenByA.locator("b")).toHaveCount(0);

  // The live stream plays: its time moves on.
  const video = page.getByTestId("live-video");
  await expect(video).toBeVisible();
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 })
    .toBeGreaterThan(0);
  const t1 = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(t1 + 0.5);
  await page.getByRole("button", { name: "开启声音" }).click();
  await expect(page.getByRole("button", { name: "静音" })).toBeVisible();
  expect(await video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(false);

  // Check-in once: the button becomes the time, and stays so after a reload.
  await page.getByRole("button", { name: "签到" }).click();
  await expect(page.getByTestId("live-checked-in")).toHaveText(/^已签到 \d{2}:\d{2}$/);
  await expect(page.getByRole("status").filter({ hasText: "签到成功" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/live-room-chat.png` });
  await other.page.screenshot({ path: `${SHOTS}/live-room-chat-b.png` });
  await page.reload();
  await waitForHydration(page);
  await expect(page.getByTestId("live-checked-in")).toBeVisible();
  await expect(page.getByRole("button", { name: "签到" })).toHaveCount(0);
  // The history comes back with the room.
  await expect(page.getByTestId("chat-message").filter({ hasText: fromB })).toBeVisible();

  // B leaves: A's count follows.
  await other.context.close();
  await expect(page.getByTestId("live-online")).toHaveText("在线 1 人");
  expect(consoleErrors).toEqual([]);
  expect(other.errors).toEqual([]);
});

test("a room before its start counts down on the server's clock and asks anonymous visitors to sign in", async ({
  page,
  consoleErrors,
}) => {
  const res = await page.request.get("/api/live?tab=upcoming");
  const items = ((await res.json()) as { items: Array<{ id: number; state: string; title: string }> }).items;
  const next = items.find((i) => i.state === "scheduled")!;
  await page.goto(`/live/${next.id}`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(next.title);
  await expect(page.getByTestId("live-state")).toHaveText("未开始");
  const countdown = page.getByTestId("live-countdown");
  const before = await countdown.textContent();
  expect(before).toMatch(/^(\d+ 天 )?(\d{2}:)?\d{2}:\d{2}$/);
  await expect(countdown).not.toHaveText(before!, { timeout: 5000 });
  await expect(page.getByText("登录后可以参与聊天、签到，并记录出勤。")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/live-room-scheduled.png` });
  await page.getByRole("button", { name: "登录" }).first().click();
  await expect(page.getByRole("dialog", { name: "登录墨池课堂" })).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test("an unknown room is the 404 page", async ({ page }) => {
  const res = await page.goto("/live/999999");
  expect(res?.status()).toBe(404);
  await expect(page.getByText("This page could not be found")).toBeVisible();
});

test("/guide/live explains how to attend", async ({ page, consoleErrors }) => {
  await page.goto("/guide/live");
  await waitForHydration(page);
  for (const heading of ["报名与预约", "进入直播间", "签到", "聊天规则与礼仪", "出勤规则", "回放"]) {
    await expect(page.getByRole("heading", { level: 2, name: new RegExp(heading) })).toBeVisible();
  }
  await expect(page.getByText("累计观看满 10 分钟")).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/guide-live.png`, fullPage: true });
  expect(consoleErrors).toEqual([]);
});
