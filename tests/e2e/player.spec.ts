/**
 * The lesson player in Debian's Chromium: a trial lesson opened from its course page really
 * plays (H.264 over HLS, and over hls.js and the MP4 fallback too), resumes after a reload
 * (from the server when signed in, from the browser otherwise), remembers the speed, offers the
 * next lesson at the end; a locked lesson explains itself without any video address; public
 * lessons and replays (with chapter marks) play.
 */
import type { Locator, Page } from "@playwright/test";
import { expect, isHydrated, test, waitForHydration, waitForPartHydration } from "./fixtures";
import { freshPhone, loadedAgain, openLoginDialog, phoneLogin } from "./login-helpers";

/** The seed's first course: 欧体楷书入门 (paid), lessons 1 and 2 are trial lessons, 3 is locked. */
const PAID_COURSE = 1;
const TRIAL_LESSON = 1;
const LOCKED_LESSON = 3;

const video = (page: Page) => page.locator("video");
const player = (page: Page) => page.getByRole("region", { name: /^视频播放器/ });
const currentTime = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => v.currentTime);

/** Muted, so the browser lets it play without asking; then the player's own play button. */
async function play(page: Page) {
  await video(page).evaluate((v: HTMLVideoElement) => {
    v.muted = true;
  });
  await player(page).getByRole("button", { name: "播放" }).first().click();
  await expect.poll(() => currentTime(page), { message: "the video plays" }).toBeGreaterThan(1.5);
}

async function pauseAt(page: Page, seconds: number): Promise<number> {
  await expect.poll(() => currentTime(page)).toBeGreaterThan(seconds);
  await player(page).getByRole("button", { name: "暂停" }).click();
  await expect(player(page).getByRole("button", { name: "播放" })).toBeVisible();
  return currentTime(page);
}

/** Once the player has applied the stored position, the video stands there. */
async function expectResumedNear(page: Page, seconds: number) {
  await expect
    .poll(() => currentTime(page), { message: `resumed near ${seconds} s` })
    .toBeGreaterThanOrEqual(Math.floor(seconds) - 0.01);
  expect(await currentTime(page)).toBeLessThan(seconds + 1);
}

async function signInByPhone(page: Page) {
  const dialog = await openLoginDialog(page);
  await phoneLogin(page, dialog, freshPhone("17"));
  const info = page.getByRole("dialog", { name: "完善资料" });
  await expect(info).toBeVisible();
  await info.getByRole("button", { name: "跳过" }).click();
  await loadedAgain(page);
}

async function signInAsDemoTeacher(page: Page) {
  const dialog = await openLoginDialog(page);
  await dialog.getByRole("tab", { name: "邮箱" }).click();
  await dialog.getByRole("textbox", { name: "邮箱", exact: true }).fill("teacher@mochi.local");
  await dialog.getByLabel("密码", { exact: true }).fill("Mochi-teacher-2026");
  await dialog.getByRole("button", { name: "登录", exact: true }).click();
  await loadedAgain(page);
}

function progressReports(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (req) => {
    if (req.method() === "PUT" && req.url().includes("/api/learning/")) seen.push(req.url());
  });
  return seen;
}

async function chooseSpeed(scope: Locator, label: string) {
  await scope.getByRole("button", { name: /^倍速/ }).click();
  await scope.getByRole("menuitemradio", { name: label }).click();
}

test.describe("lesson player", () => {
  test("a trial lesson opened from its course page plays and, anonymous, resumes from the browser", async ({
    page,
    consoleErrors,
  }) => {
    const reports = progressReports(page);
    await page.goto(`/course/${PAID_COURSE}`);
    await waitForHydration(page);
    await page.getByRole("link", { name: "试看", exact: true }).first().click();
    await expect(page).toHaveURL(new RegExp(`/video/${TRIAL_LESSON}$`));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // The poster is the lesson's own title card.
    await expect(video(page)).toHaveAttribute("poster", /\/media\/video\/cards\/01-01\/poster\.jpg$/);

    await play(page);
    // Debian's Chromium decodes the H.264 sample: real frames of the right size.
    expect(await video(page).evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual([640, 360]);
    const stoppedAt = await pauseAt(page, 4);

    // Keyboard: space plays and pauses, → jumps 5 s.
    await video(page).focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => currentTime(page)).toBeGreaterThan(stoppedAt + 4.5);
    await page.keyboard.press("ArrowLeft");
    await expect.poll(() => currentTime(page)).toBeLessThan(stoppedAt + 0.5);
    await page.keyboard.press(" ");
    await expect(player(page).getByRole("button", { name: "暂停" })).toBeVisible();
    await page.keyboard.press(" ");
    await expect(player(page).getByRole("button", { name: "播放" })).toBeVisible();
    const savedAt = await currentTime(page);

    await page.reload();
    await waitForHydration(page);
    await expectResumedNear(page, savedAt);
    expect(reports, "anonymous viewers report nothing to the server").toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test("signed in: the server resumes the lesson, and the chosen speed follows to other lessons", async ({
    page,
    consoleErrors,
  }) => {
    await page.goto(`/video/${TRIAL_LESSON}`);
    await waitForHydration(page);
    await signInByPhone(page);
    await expect(page).toHaveURL(new RegExp(`/video/${TRIAL_LESSON}$`));

    // While it plays, progress goes to the server every 15 s (seconds watched, not wall time).
    const periodic = page.waitForRequest(
      (req) => req.method() === "PUT" && req.url().endsWith(`/api/learning/lessons/${TRIAL_LESSON}/progress`),
      { timeout: 25_000 },
    );
    await play(page);
    const tickRequest = await periodic;
    const tick = tickRequest.postDataJSON() as { position: number; watched: number; speed: number };
    expect(tick.watched).toBeGreaterThanOrEqual(5);
    expect(tick.watched).toBeLessThanOrEqual(16);
    expect(tick.speed).toBe(1);
    expect(await video(page).evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);

    const saved = page.waitForResponse(
      (res) =>
        res.url().endsWith(`/api/learning/lessons/${TRIAL_LESSON}/progress`) &&
        res.request().method() === "PUT" &&
        res.request() !== tickRequest,
    );
    const stoppedAt = await pauseAt(page, tick.position + 1.5);
    const report = await saved;
    expect(report.status()).toBe(200);
    expect(await report.json()).toMatchObject({ position: Math.floor(stoppedAt) });
    // The outline beside the player shows the progress at once.
    await expect(page.getByRole("progressbar", { name: /学习进度$/ }).first()).toBeVisible();

    // Another browser profile would see the same: nothing is kept locally for signed-in viewers.
    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await waitForHydration(page);
    await expectResumedNear(page, Math.floor(stoppedAt));

    const remembered = page.waitForResponse((res) => res.url().endsWith("/api/learning/speed"));
    await chooseSpeed(player(page), "1.5×");
    expect((await remembered).status()).toBe(200);
    expect(await video(page).evaluate((v: HTMLVideoElement) => v.playbackRate)).toBe(1.5);

    await page.evaluate(() => localStorage.clear());
    await page.reload();
    await waitForHydration(page);
    await expect(player(page).getByRole("button", { name: "倍速 1.5×" })).toBeVisible();
    await play(page);
    expect(await video(page).evaluate((v: HTMLVideoElement) => v.playbackRate)).toBe(1.5);

    // Leaving while it plays (a route change) saves where the learner was.
    await video(page).evaluate((v: HTMLVideoElement) => {
      v.currentTime = 5;
    });
    await expect.poll(() => currentTime(page)).toBeGreaterThan(6);
    const left = page.waitForRequest(
      (req) => req.url().endsWith(`/api/learning/lessons/${TRIAL_LESSON}/progress`) && req.method() === "PUT",
    );
    const outline = page.getByRole("complementary", { name: "课程目录" });
    // The outline hydrates on its own (decision 059); before that its links are plain links.
    await waitForPartHydration(outline);
    await outline.getByRole("link").nth(1).click();
    const leftAt = ((await left).postDataJSON() as { position: number }).position;
    await expect(page).toHaveURL(new RegExp(`/video/${TRIAL_LESSON + 1}$`));
    await expect(player(page).getByRole("button", { name: "倍速 1.5×" })).toBeVisible();
    await outline.getByRole("link").first().click();
    await expect(page).toHaveURL(new RegExp(`/video/${TRIAL_LESSON}$`));
    await expectResumedNear(page, leftAt);
    expect(consoleErrors).toEqual([]);
  });

  test("anonymous: the speed is kept in the browser", async ({ page, consoleErrors }) => {
    const reports = progressReports(page);
    await page.goto(`/video/${TRIAL_LESSON + 1}`);
    await waitForHydration(page);
    await chooseSpeed(player(page), "1.25×");
    await page.reload();
    await waitForHydration(page);
    await expect(player(page).getByRole("button", { name: "倍速 1.25×" })).toBeVisible();
    await play(page);
    expect(await video(page).evaluate((v: HTMLVideoElement) => v.playbackRate)).toBe(1.25);
    expect(reports).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test("at the end the next lesson is offered, then plays", async ({ page, consoleErrors }) => {
    await page.goto(`/video/${TRIAL_LESSON}`);
    await waitForHydration(page);
    const nextTitle = await page.locator(".lesson-steps__link--next .lesson-steps__title").innerText();
    await play(page);
    await video(page).evaluate((v: HTMLVideoElement) => {
      v.currentTime = v.duration - 1;
    });
    const offer = player(page).getByText(/秒后自动播放/);
    await expect(offer).toBeVisible();
    await player(page).getByRole("button", { name: "取消自动播放" }).click();
    await expect(offer).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`/video/${TRIAL_LESSON}$`));
    await player(page).getByRole("link", { name: "播放下一课" }).click();
    await expect(page).toHaveURL(new RegExp(`/video/${TRIAL_LESSON + 1}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(nextTitle);
    await expect(page.locator('.lesson-outline [aria-current="page"]')).toContainText(nextTitle);
    // It starts by itself: the learner asked for it.
    await expect.poll(() => currentTime(page), { message: "the next lesson plays" }).toBeGreaterThan(1);
    expect(consoleErrors).toEqual([]);
  });

  test("the player works before the outline, homework and course card have their code; they hydrate when it comes (decision 059)", async ({
    page,
    consoleErrors,
  }) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const held: string[] = [];
    await page.route(/\/assets\/Lesson(Outline|Homework|Course|End)-[\w-]+\.js$/, async (route) => {
      held.push(new URL(route.request().url()).pathname);
      await released;
      await route.continue();
    });
    await page.goto(`/video/${TRIAL_LESSON}`);
    await waitForHydration(page);
    await expect.poll(() => held.length, { message: "the parts' code is asked for after the page's" }).toBe(4);
    // The server's HTML of the parts stays in place while their code is held back.
    const outline = page.locator(".lesson-outline");
    await expect(outline.getByRole("link", { name: /起笔、行笔、收笔/ })).toBeVisible();
    await expect(page.getByRole("heading", { name: "本课作业" })).toBeVisible();
    await expect(page.locator(".lesson-course")).toBeVisible();
    // The player is hydrated all the same.
    await chooseSpeed(player(page), "1.5×");
    await expect(player(page).getByRole("button", { name: "倍速 1.5×" })).toBeVisible();

    const link = outline.getByRole("link", { name: /起笔、行笔、收笔/ });
    expect(await isHydrated(link), "the outline waits for its code").toBe(false);

    release();
    // A link clicked before its part has hydrated is a plain link (a full load, decision 059):
    // the outline's code has to arrive and hydrate first.
    await waitForPartHydration(link);
    await page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/video/${TRIAL_LESSON + 1}$`));
    await expect(page.locator('.lesson-outline [aria-current="page"]')).toContainText("起笔、行笔、收笔");
    // The outline's link was the router's: the same document, not a new load.
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(consoleErrors).toEqual([]);
  });

  test("a locked lesson says why and how to get it, and the page holds no video address", async ({
    page,
    consoleErrors,
  }) => {
    const response = await page.goto(`/video/${LOCKED_LESSON}`);
    expect(response?.status()).toBe(200);
    await waitForHydration(page);
    const locked = page.getByRole("region", { name: "暂时不能观看" });
    await expect(locked).toContainText("本课为付费内容，购买课程后即可学习");
    await expect(locked.getByRole("link", { name: /购买课程/ })).toHaveAttribute("href", `/course/${PAID_COURSE}`);
    await expect(locked.getByRole("link", { name: "先看试看课" })).toHaveAttribute("href", `/video/${TRIAL_LESSON}`);
    await expect(video(page)).toHaveCount(0);
    const html = await page.content();
    expect(html).not.toContain("/media/video/");
    expect(await response!.text()).not.toContain("/media/video/");

    await locked.getByRole("link", { name: "登录" }).click();
    await expect(page.getByRole("dialog", { name: "登录墨池课堂" })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });
});

test.describe("streams", () => {
  test("where the browser has no HLS of its own, hls.js plays the stream", async ({ page, consoleErrors }) => {
    await page.addInitScript(() => {
      const original = HTMLMediaElement.prototype.canPlayType;
      HTMLMediaElement.prototype.canPlayType = function (type: string) {
        return type.includes("mpegurl") ? "" : original.call(this, type);
      };
    });
    const segments: string[] = [];
    page.on("request", (req) => {
      if (req.url().endsWith(".ts")) segments.push(req.url());
    });
    await page.goto(`/video/${TRIAL_LESSON}`);
    await waitForHydration(page);
    await play(page);
    expect(await video(page).evaluate((v: HTMLVideoElement) => v.src.startsWith("blob:"))).toBe(true);
    expect(segments.length).toBeGreaterThan(0);
    expect(consoleErrors).toEqual([]);
  });

  test("when the HLS playlist fails, the MP4 takes over", async ({ page, consoleErrors }) => {
    await page.route("**/index.m3u8", (route) => route.abort());
    await page.goto(`/video/${TRIAL_LESSON}`);
    await waitForHydration(page);
    await play(page);
    expect(await video(page).evaluate((v: HTMLVideoElement) => v.currentSrc)).toMatch(/\/index\.mp4$/);
    // The aborted playlist is the browser's own log line, nothing else.
    expect(consoleErrors.filter((e) => !e.includes("net::ERR_FAILED"))).toEqual([]);
  });
});

test.describe("public lessons and replays", () => {
  test("/video lists the public lessons and one plays in the player", async ({ page, consoleErrors }) => {
    await page.goto("/video");
    await waitForHydration(page);
    const cards = page.locator(".public-card");
    await expect(cards).toHaveCount(8);
    const first = cards.first().getByRole("heading");
    const title = await first.innerText();
    await first.click();
    await expect(page).toHaveURL(/\/video\/PublicCourseItem\?id=\d+$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
    expect(jsonLd).toMatchObject({ "@type": "VideoObject", name: title, duration: "PT30S", isAccessibleForFree: true });
    expect(jsonLd.contentUrl).toMatch(/\/index\.mp4$/);
    await play(page);
    expect(consoleErrors).toEqual([]);
  });

  test("malformed or unknown ids are the 404 page; the bare page lets you pick a lesson", async ({
    page,
    consoleErrors,
  }) => {
    for (const url of [
      "/video/PublicCourseItem?id=abc",
      "/video/PublicCourseItem?id=99999",
      "/playback?id=99999",
      "/video/99999",
    ]) {
      const res = await page.goto(url);
      expect(res?.status(), url).toBe(404);
      await expect(page.getByText("This page could not be found")).toBeVisible();
    }
    expect(consoleErrors.filter((e) => !e.includes("status of 404"))).toEqual([]);
    const bare = await page.goto("/video/PublicCourseItem");
    expect(bare?.status()).toBe(200);
    await waitForHydration(page);
    await expect(page.locator(".public-card")).toHaveCount(8);
  });

  test("/playback lists replays; the teacher's replay plays and its chapter marks jump", async ({
    page,
    consoleErrors,
  }) => {
    await page.goto("/playback");
    await waitForHydration(page);
    await expect(page.getByRole("link", { name: /^看回放：/ })).toHaveCount(7);
    const link = page.getByRole("link", { name: "看回放：结构四十八法 · 第一讲：天覆与地载" });
    await link.click();
    await expect(page).toHaveURL(/\/playback\?id=\d+$/);
    // Not the viewer's course: the reason, no video.
    await expect(page.getByRole("region", { name: "暂时不能观看" })).toContainText("本场回放仅对课程学员开放");
    await expect(video(page)).toHaveCount(0);

    // The teacher who gave the session may watch it.
    await signInAsDemoTeacher(page);
    await play(page);
    const marks = page.getByRole("complementary", { name: "回放章节" });
    await expect(marks.getByRole("button")).toHaveCount(3);
    await expect(player(page).getByRole("button", { name: /^跳到 / })).toHaveCount(3);
    await marks.getByRole("button", { name: /示范书写/ }).click();
    await expect.poll(() => currentTime(page)).toBeGreaterThanOrEqual(10);
    await expect(marks.getByRole("button", { name: /示范书写/ })).toHaveAttribute("aria-current", "true");
    expect(await currentTime(page)).toBeLessThan(14);
    await player(page)
      .getByRole("button", { name: /^跳到 00:20/ })
      .click();
    await expect(marks.getByRole("button", { name: /答疑与作业/ })).toHaveAttribute("aria-current", "true");
    expect(consoleErrors).toEqual([]);
  });
});
