/**
 * Writing with a finger and a pen. On a phone (390×844, touch): /calmness fits the screen, a
 * character traced with real touch events (CDP) finishes the stroke quiz, and the page does not
 * scroll under the writing finger (it does over the paper while only the stroke order plays). On
 * a tablet, portrait and landscape: the teacher's review canvas fits, a pen stroke with varying
 * pressure leaves a mark that is saved with its pressures (a palm resting meanwhile changes
 * nothing), a lone finger then moves the photo, and a two-finger pinch zooms it without a mark
 * while the mark stays on the same spot of the photo.
 */
import type { CDPSession, Locator, Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";
import { signInDemo } from "./homework-helpers";
import { ANDROID_UA, fits, layoutProblems } from "./phone-layout";

type XY = { x: number; y: number };

async function touch(cdp: CDPSession, type: "touchStart" | "touchMove" | "touchEnd", points: XY[]) {
  await cdp.send("Input.dispatchTouchEvent", {
    type,
    touchPoints: points.map((p, id) => ({ x: p.x, y: p.y, id, radiusX: 4, radiusY: 4, force: 0.5 })),
  });
}

/** One finger along a path of points, as a touchscreen reports it. */
async function swipe(cdp: CDPSession, path: XY[], steps = 4) {
  await touch(cdp, "touchStart", [path[0]!]);
  for (let i = 1; i < path.length; i++) {
    const a = path[i - 1]!;
    const b = path[i]!;
    for (let s = 1; s <= steps; s++) {
      await touch(cdp, "touchMove", [{ x: a.x + ((b.x - a.x) * s) / steps, y: a.y + ((b.y - a.y) * s) / steps }]);
    }
  }
  await touch(cdp, "touchEnd", []);
}

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, userAgent: ANDROID_UA });

  test("/calmness fits the screen, and a character traced with a finger finishes the quiz without scrolling the page", async ({
    page,
    consoleErrors,
  }) => {
    await page.goto("/calmness");
    await waitForHydration(page);
    const writer = page.getByTestId("trainer-writer");
    await expect(writer).toHaveAttribute("data-status", "ready");
    await expect(page.locator(".practice-card")).toHaveCount(24);

    const problems = await layoutProblems(page);
    expect(problems, JSON.stringify(problems)).toEqual({ overflow: 0, wide: [], tinyText: [], smallTargets: [] });
    expect(fits(problems)).toBe(true);

    // The writing square takes the trainer's whole width, and the mode buttons are finger-sized.
    const paper = page.getByTestId("trainer-paper");
    const trainer = page.getByTestId("trainer");
    const paperBox = (await paper.boundingBox())!;
    const trainerBox = (await trainer.boundingBox())!;
    expect(paperBox.width).toBeGreaterThan(trainerBox.width - 30);
    expect(Math.abs(paperBox.width - paperBox.height)).toBeLessThan(1);
    const quizButton = trainer.getByRole("button", { name: "默写测验" });
    expect((await quizButton.boundingBox())!.height).toBeGreaterThanOrEqual(44);

    const cdp = await page.context().newCDPSession(page);
    await paper.evaluate((el) => el.scrollIntoView({ block: "center" }));
    await page.waitForTimeout(300);
    const box = (await writer.boundingBox())!;
    const down = [
      { x: box.x + box.width / 2, y: box.y + box.height * 0.8 },
      { x: box.x + box.width / 2, y: box.y + box.height * 0.2 },
    ];

    // While the stroke order only plays, a swipe over the paper scrolls the page as anywhere else.
    const before = await page.evaluate(() => window.scrollY);
    await swipe(cdp, down, 6);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(before + 50);

    // The quiz: the page stays put under the writing finger.
    await quizButton.tap();
    await expect(quizButton).toHaveAttribute("aria-pressed", "true");
    await paper.evaluate((el) => el.scrollIntoView({ block: "center" }));
    await page.waitForTimeout(300);
    const still = await page.evaluate(() => window.scrollY);
    const at = (await writer.boundingBox())!;

    // A wrong stroke first (bottom to top across the square): counted as a mistake.
    await swipe(cdp, [
      { x: at.x + at.width * 0.15, y: at.y + at.height * 0.9 },
      { x: at.x + at.width * 0.9, y: at.y + at.height * 0.15 },
    ]);
    await expect(trainer.getByText("已错 1 笔")).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(still);

    // Every stroke of the character along its medians, at the size the square has on this phone.
    const char = (await writer.getAttribute("data-char"))!;
    const res = await page.request.get(`/api/practice/strokes/${encodeURIComponent(char)}`);
    const { medians } = (await res.json()) as { medians: Array<Array<[number, number]>> };
    const size = at.width;
    const padding = Math.round((16 * size) / 320);
    const scale = (size - 2 * padding) / 1024;
    const toScreen = ([x, y]: [number, number]) => ({
      x: at.x + padding + x * scale,
      y: at.y + size - (124 * scale + padding) - y * scale,
    });
    for (const median of medians) {
      await swipe(cdp, median.map(toScreen));
      await page.waitForTimeout(150);
      expect(await page.evaluate(() => window.scrollY)).toBe(still);
    }
    await expect(writer).toHaveAttribute("data-done", "1");
    await expect(trainer.getByText("写完了，错了 1 笔")).toBeVisible();
    await expect(page.getByTestId("trainer-message")).toContainText(`写完了「${char}」`);
    expect(await page.evaluate(() => window.scrollY)).toBe(still);
    await page.screenshot({ path: "test-results/phone-touch/calmness-390.png", fullPage: true });
    expect(consoleErrors).toEqual([]);
  });
});

/** Where an element sits on the photo: its centre as fractions of the photo's width and height. */
async function onPhoto(mark: Locator, photo: Locator) {
  const m = (await mark.boundingBox())!;
  const p = (await photo.boundingBox())!;
  return { x: (m.x + m.width / 2 - p.x) / p.width, y: (m.y + m.height / 2 - p.y) / p.height };
}

async function pen(cdp: CDPSession, type: "mousePressed" | "mouseMoved" | "mouseReleased", p: XY, force: number) {
  await cdp.send("Input.dispatchMouseEvent", {
    type,
    x: p.x,
    y: p.y,
    button: "left",
    buttons: type === "mouseReleased" ? 0 : 1,
    clickCount: type === "mouseMoved" ? 0 : 1,
    pointerType: "pen",
    force,
  });
}

async function claimFirst(page: Page) {
  await signInDemo(page, "teacher");
  await page.goto("/teach/homework");
  await waitForHydration(page);
  const first = page
    .locator(".queue-item")
    .filter({ has: page.getByRole("button", { name: "开始批改" }) })
    .first();
  const attemptId = (await first.getAttribute("data-attempt"))!;
  await first.getByRole("button", { name: "开始批改" }).click();
  await expect(page).toHaveURL(`/teach/homework/review?attempt=${attemptId}`);
  return attemptId;
}

for (const viewport of [
  { width: 768, height: 1024 },
  { width: 1024, height: 768 },
]) {
  test.describe(`on a tablet at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport, isMobile: false, hasTouch: true });

    test("the review canvas takes a pen with pressure and a two-finger pinch, and the mark stays on the photo", async ({
      page,
      consoleErrors,
    }) => {
      const attemptId = await claimFirst(page);
      const canvas = page.getByTestId("review-canvas");
      const photo = canvas.locator("img");
      await expect(photo).toBeVisible();
      await waitForHydration(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
      expect((await layoutProblems(page)).wide).toEqual([]);
      // The tools are finger-sized and the canvas is a touch surface the browser does not scroll.
      expect((await page.getByRole("button", { name: "画笔" }).boundingBox())!.height).toBeGreaterThanOrEqual(44);
      expect(await canvas.evaluate((el) => getComputedStyle(el).touchAction)).toBe("none");

      await canvas.scrollIntoViewIfNeeded();
      const cdp = await page.context().newCDPSession(page);
      const box = (await canvas.boundingBox())!;
      // A pen stroke, pressed harder as it goes.
      const from = { x: box.x + box.width * 0.35, y: box.y + box.height * 0.45 };
      // Halfway, the hand comes to rest on the glass beside it and slides: the pen keeps writing.
      const palm = { x: box.x + box.width * 0.7, y: box.y + box.height * 0.8 };
      await pen(cdp, "mousePressed", from, 0.2);
      for (let i = 1; i <= 16; i++) {
        if (i === 6) await touch(cdp, "touchStart", [palm]);
        if (i > 6) await touch(cdp, "touchMove", [{ x: palm.x + (i - 6) * 8, y: palm.y - (i - 6) * 4 }]);
        await pen(cdp, "mouseMoved", { x: from.x + i * 6, y: from.y + i * 2 }, 0.2 + i * 0.05);
      }
      await pen(cdp, "mouseReleased", { x: from.x + 96, y: from.y + 32 }, 0);
      await touch(cdp, "touchEnd", []);
      const marks = canvas.locator("svg path");
      await expect(marks).toHaveCount(1);
      await expect(page.locator(".review-toolbar__zoom")).toHaveText("100%");
      const placed = await onPhoto(marks.first(), photo);
      const mark = (await marks.first().boundingBox())!;
      expect(mark.width).toBeGreaterThan(80);

      // Once a pen has written, a lone finger moves the photo and leaves no mark.
      const stage = canvas.locator(".review-canvas__stage");
      const stageAt = (await stage.boundingBox())!;
      await swipe(cdp, [
        { x: box.x + box.width * 0.5, y: box.y + box.height * 0.5 },
        { x: box.x + box.width * 0.5 + 60, y: box.y + box.height * 0.5 + 30 },
      ]);
      await expect.poll(async () => (await stage.boundingBox())!.x).toBeGreaterThan(stageAt.x + 40);
      await expect(marks).toHaveCount(1);
      await page.getByRole("button", { name: "适合" }).click();
      await expect.poll(async () => (await stage.boundingBox())!.x).toBeCloseTo(stageAt.x, 0);

      // Two fingers spread apart: the photo zooms, no mark is drawn, the mark stays on its spot.
      const widthBefore = (await stage.boundingBox())!.width;
      const mid = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      await touch(cdp, "touchStart", [
        { x: mid.x - 40, y: mid.y },
        { x: mid.x + 40, y: mid.y },
      ]);
      for (let i = 1; i <= 8; i++) {
        await touch(cdp, "touchMove", [
          { x: mid.x - 40 - i * 10, y: mid.y + i * 2 },
          { x: mid.x + 40 + i * 10, y: mid.y + i * 2 },
        ]);
      }
      await touch(cdp, "touchEnd", []);
      await expect.poll(async () => (await stage.boundingBox())!.width).toBeGreaterThan(widthBefore * 1.5);
      await expect(page.locator(".review-toolbar__zoom")).not.toHaveText("100%");
      await expect(marks).toHaveCount(1);
      const after = await onPhoto(marks.first(), photo);
      expect(Math.abs(after.x - placed.x)).toBeLessThan(0.01);
      expect(Math.abs(after.y - placed.y)).toBeLessThan(0.01);
      await page.screenshot({ path: `test-results/phone-touch/review-${viewport.width}.png` });

      // 适合 puts the photo back; the mark still sits on the same spot.
      await page.getByRole("button", { name: "适合" }).click();
      await expect(page.locator(".review-toolbar__zoom")).toHaveText("100%");
      const reset = await onPhoto(marks.first(), photo);
      expect(Math.abs(reset.x - placed.x)).toBeLessThan(0.01);

      await page.getByRole("radio", { name: "良", exact: true }).check();
      await page.getByRole("textbox", { name: "评语", exact: true }).fill("横画起笔再稳一些。");
      const review = page.waitForRequest(
        (r) => r.url().endsWith(`/attempts/${attemptId}/review`) && r.method() === "POST",
      );
      await page.getByRole("button", { name: "保存", exact: true }).click();
      const sent = (await review).postDataJSON() as {
        drawings: Array<{ marks: Array<{ kind: string; points: Array<[number, number, number]> }> }>;
      };
      const saved = sent.drawings[0]!.marks;
      expect(saved.map((m) => m.kind)).toEqual(["pen"]);
      const pressures = saved[0]!.points.map((p) => p[2]);
      // The pen's own pressure, rising along the stroke; the points are in the photo's coordinates.
      expect(Math.max(...pressures) - Math.min(...pressures)).toBeGreaterThan(0.3);
      expect(pressures.at(-1)!).toBeGreaterThan(pressures[0]!);
      for (const [x, y] of saved[0]!.points) {
        expect(x).toBeGreaterThan(0);
        expect(x).toBeLessThan(1);
        expect(y).toBeGreaterThan(0);
        expect(y).toBeLessThan(1);
      }
      await expect(page).toHaveURL("/teach/homework");
      expect(consoleErrors).toEqual([]);
    });
  });
}
