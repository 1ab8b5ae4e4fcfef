/**
 * The catalogue, lesson, video and live pages on a phone (390×844, touch, Chrome on Android):
 * each page fits the screen (nothing wider, no text under 12 px, primary buttons 44×44), the
 * player plays inline and seeks by dragging a finger along its progress bar, the live room's chat
 * input stays on screen when the keyboard takes half of it, the lesson's 本课作业 comes right
 * under the player, and a new learner buys a course on the phone and plays one of its lessons.
 */
import type { Page } from "@playwright/test";
import { payInSandbox } from "./checkout";
import { expect, test, waitForHydration } from "./fixtures";
import { signInDemo } from "./homework-helpers";
import { freshPhone, phoneLogin, skipCompleteInfo } from "./login-helpers";
import { ANDROID_UA, fits, layoutProblems } from "./phone-layout";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, userAgent: ANDROID_UA });

const SHOTS = "test-results/phone-catalogue";

/** Opens `path` as a phone does and waits for the page to have hydrated and its images settled. */
async function open(page: Page, path: string) {
  const res = await page.goto(path);
  expect(res?.status(), path).toBe(200);
  await waitForHydration(page);
  await page.waitForTimeout(300);
}

/** The first link on `list` whose address matches `pattern` (real ids, as a visitor finds them). */
async function firstLink(page: Page, list: string, pattern: RegExp): Promise<string> {
  await open(page, list);
  const hrefs = await page.$$eval("main a[href]", (as) => as.map((a) => a.getAttribute("href") ?? ""));
  const found = hrefs.find((h) => pattern.test(h));
  expect(found, `a link like ${pattern} on ${list}`).toBeTruthy();
  return found!;
}

async function expectFits(page: Page, path: string) {
  await open(page, path);
  const problems = await layoutProblems(page);
  await page.screenshot({ path: `${SHOTS}/${path.replace(/[^\w-]+/g, "_")}.png`, fullPage: true });
  expect(fits(problems), `${path}: ${JSON.stringify(problems)}`).toBe(true);
}

/** A lesson with a homework task (the demo catalogue gives some lessons one). */
async function lessonWithTask(page: Page): Promise<number> {
  for (let id = 1; id <= 60; id++) {
    const res = await page.request.get(`/api/homework/lessons/${id}`);
    if (res.ok() && ((await res.json()) as { task: unknown }).task) return id;
  }
  throw new Error("no lesson with a homework task");
}

const player = (page: Page) => page.getByRole("region", { name: /^视频播放器/ });
const currentTime = (page: Page) => page.locator("video").evaluate((v: HTMLVideoElement) => v.currentTime);

test.describe("every catalogue page fits a phone", () => {
  const lists = [
    "/product/list",
    "/video",
    "/books",
    "/books/tabs",
    "/stationery",
    "/experience",
    "/show/activity",
    "/live",
    "/playback",
  ];
  test("the lists", async ({ page, consoleErrors }) => {
    test.setTimeout(120_000);
    await signInDemo(page, "learner");
    for (const path of lists) await expectFits(page, path);
    expect(consoleErrors).toEqual([]);
  });

  const details: Array<[string, string, RegExp]> = [
    ["a course", "/product/list", /^\/course\/\d+$/],
    ["a public lesson", "/video", /^\/video\/PublicCourseItem\?id=\d+$/],
    ["a book", "/books", /^\/books\/\d+$/],
    ["a commodity", "/stationery", /^\/commodity\/\d+$/],
    ["an activity", "/show/activity", /^\/activitys\/[^/]+$/],
    ["a live room", "/live", /^\/live\/\d+$/],
    ["a replay", "/playback", /^\/playback\?id=\d+$/],
  ];
  test("the detail pages, found from their lists", async ({ page }) => {
    test.setTimeout(120_000);
    await signInDemo(page, "learner");
    for (const [what, list, pattern] of details) {
      await test.step(what, async () => expectFits(page, await firstLink(page, list, pattern)));
    }
    // A lesson: the first of the first course.
    const course = await firstLink(page, "/product/list", /^\/course\/\d+$/);
    await expectFits(page, await firstLink(page, course, /^\/video\/\d+$/));
  });
});

test("the lesson page: the video plays inline, 本课作业 is right under the player, the outline after it", async ({
  page,
  consoleErrors,
}) => {
  await signInDemo(page, "learner");
  const lessonId = await lessonWithTask(page);
  await open(page, `/video/${lessonId}`);
  await expect(page.locator("video")).toHaveAttribute("playsinline", "");

  const below = async (name: string | RegExp) => (await page.getByRole("region", { name }).boundingBox())!;
  const shown = (await player(page).boundingBox())!;
  const homework = await below("本课作业");
  const outline = (await page.getByRole("complementary", { name: "课程目录" }).boundingBox())!;
  // One column: the player the width of the content, 本课作业 under it, then the outline.
  expect(shown.x + shown.width).toBeLessThanOrEqual(390);
  expect(homework.y).toBeGreaterThanOrEqual(shown.y + shown.height);
  expect(homework.y - (shown.y + shown.height), "nothing else but the previous/next links between").toBeLessThan(120);
  expect(outline.y).toBeGreaterThanOrEqual(homework.y + homework.height);
  await page.screenshot({ path: `${SHOTS}/lesson-homework.png`, fullPage: true });
  expect(consoleErrors).toEqual([]);
});

test("dragging a finger along the progress bar seeks the video there", async ({ page, consoleErrors }) => {
  // The demo catalogue's first lesson with a task is a trial lesson: anyone may watch it.
  const lessonId = await lessonWithTask(page);
  await open(page, `/video/${lessonId}`);
  const video = page.locator("video");
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
  const duration = await video.evaluate((v: HTMLVideoElement) => v.duration);
  expect(duration).toBeGreaterThan(10);

  const bar = page.getByTestId("player-seek");
  await bar.scrollIntoViewIfNeeded();
  await expect(bar).toHaveCSS("touch-action", "none");
  const box = (await bar.boundingBox())!;
  // Controls for a finger: the bar and the buttons are 44 px tall.
  expect(box.height).toBeGreaterThanOrEqual(44);
  expect(
    (await player(page).getByRole("button", { name: "播放" }).last().boundingBox())!.height,
  ).toBeGreaterThanOrEqual(44);
  const range = (await bar.locator("input").boundingBox())!;
  // The finger lands on the bar at 10 % and drags to 70 %.
  const y = box.y + box.height / 2;
  const x = (f: number) => range.x + range.width * f;
  const scrolled = await page.evaluate(() => window.scrollY);
  const cdp = await page.context().newCDPSession(page);
  const touch = (type: "touchStart" | "touchMove" | "touchEnd", at?: number) =>
    cdp.send("Input.dispatchTouchEvent", {
      type,
      touchPoints: at === undefined ? [] : [{ x: x(at), y }],
    });
  await touch("touchStart", 0.1);
  for (const at of [0.2, 0.35, 0.5, 0.6, 0.7]) await touch("touchMove", at);
  // While the finger is down the video already follows it.
  await expect.poll(() => currentTime(page)).toBeGreaterThan(duration * 0.7 - 1.5);
  await touch("touchEnd");
  await expect.poll(() => currentTime(page)).toBeGreaterThan(duration * 0.7 - 1.5);
  expect(await currentTime(page)).toBeLessThan(duration * 0.7 + 1.5);
  expect(await page.evaluate(() => window.scrollY), "the page did not scroll under the finger").toBe(scrolled);

  // The speed menu is there for a finger too.
  await player(page).getByRole("button", { name: /^倍速/ }).tap();
  const fast = player(page).getByRole("menuitemradio", { name: "1.5×" });
  expect((await fast.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await fast.tap();
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.playbackRate)).toBe(1.5);
  expect(consoleErrors).toEqual([]);
});

test("the live room: picture on top, chat below, its input stays on screen with the keyboard up", async ({ page }) => {
  await signInDemo(page, "learner");
  const res = await page.request.get("/api/live?tab=live");
  const open_ = ((await res.json()) as { items: Array<{ id: number; isOpen: boolean }> }).items.find((i) => i.isOpen);
  expect(open_, "the seeded open class is live").toBeTruthy();
  await open(page, `/live/${open_!.id}`);
  await expect(page.getByTestId("live-video")).toHaveAttribute("playsinline", "");

  const input = page.getByLabel("发言");
  await expect(input).toBeEnabled();
  const stage = (await page.locator(".live-stage").boundingBox())!;
  const chat = (await page.locator(".room-chat").boundingBox())!;
  expect(stage.x + stage.width).toBeLessThanOrEqual(390);
  expect(chat.y, "the chat comes under the picture").toBeGreaterThanOrEqual(stage.y + stage.height);
  expect(chat.x + chat.width).toBeLessThanOrEqual(390);

  // The learner taps into the input at the foot of the screen; the keyboard then takes the lower half.
  await input.tap();
  await expect(input).toBeFocused();
  await input.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().bottom - window.innerHeight + 8));
  await page.setViewportSize({ width: 390, height: 420 });
  await expect
    .poll(async () => {
      const box = (await input.boundingBox())!;
      return box.y >= 0 && box.y + box.height <= 420 && box.x + box.width <= 390;
    })
    .toBe(true);
  await expect(input).toBeFocused();
  await page.screenshot({ path: `${SHOTS}/live-keyboard.png` });
});

test("a new learner buys a course on the phone, opens a lesson and plays it; their group page fits", async ({
  page,
}) => {
  test.setTimeout(120_000);
  // Signing in from the link that opens the login dialog (the header's own button is the shell's).
  await open(page, "/?login=1");
  await phoneLogin(page, page.getByRole("dialog", { name: "登录墨池课堂" }), freshPhone("16"));
  await skipCompleteInfo(page);

  // A paid course from the list, bought with its 立即购买 (reached with the thumb, 44 px at least).
  const list = (await (await page.request.get("/api/courses?pageSize=48&price=paid&kind=recorded")).json()) as {
    items: Array<{ id: number }>;
  };
  const courseId = list.items[0]!.id;
  await open(page, `/course/${courseId}`);
  const buy = page.getByRole("button", { name: "立即购买" });
  const buyBox = (await buy.boundingBox())!;
  expect(buyBox.height).toBeGreaterThanOrEqual(44);
  expect(buyBox.x + buyBox.width).toBeLessThanOrEqual(390);
  await buy.tap();
  await payInSandbox(page);

  // Back on the course: 继续学习 opens the first lesson, which now plays.
  await open(page, `/course/${courseId}`);
  await page.getByRole("link", { name: "继续学习" }).tap();
  await expect(page).toHaveURL(/\/video\/\d+$/);
  await waitForHydration(page);
  await page.locator("video").evaluate((v: HTMLVideoElement) => {
    v.muted = true;
  });
  await player(page).getByRole("button", { name: "播放" }).first().tap();
  await expect.poll(() => currentTime(page), { message: "the lesson plays" }).toBeGreaterThan(1.5);
  await page.screenshot({ path: `${SHOTS}/journey-lesson.png` });

  // A group of another course, started by the same learner: its page fits too.
  let campaignId: number | null = null;
  for (const item of list.items.filter((i) => i.id !== courseId)) {
    const course = (await (await page.request.get(`/api/courses/${item.id}`)).json()) as {
      groupBuy: { campaignId: number } | null;
    };
    campaignId = course.groupBuy?.campaignId ?? null;
    if (campaignId !== null) break;
  }
  expect(campaignId, "another course with a group buy").not.toBeNull();
  const groupNo = await page.evaluate(async (id) => {
    const res = await fetch("/api/groups", {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
      body: JSON.stringify({ campaignId: id }),
    });
    return ((await res.json()) as { groupNo: string }).groupNo;
  }, campaignId);
  await expectFits(page, `/groupbuy/${groupNo}`);
});
