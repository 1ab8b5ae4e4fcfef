/**
 * What the homework browser tests share: signing in a demo account, a fresh learner who has
 * bought a course, a photo of a practice sheet, handing photos in from the open dialog, and the
 * teacher's marks on the review canvas.
 */
import type { Locator, Page } from "@playwright/test";
import { lessonHomeworkSchema, type LessonHomework } from "../../shared/contracts/homework";
import { payInSandbox } from "./checkout";
import { expect, waitForHydration, waitForPartHydration } from "./fixtures";
import { freshPhone, loadedAgain, openLoginDialog, phoneLogin } from "./login-helpers";

/** Signs the browser in with a demo account's published password (README). */
export async function signInDemo(page: Page, who: "teacher" | "learner" | "operator") {
  await page.goto("/");
  await waitForHydration(page);
  const status = await page.evaluate(async (account) => {
    const res = await fetch("/api/auth/email/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: `${account}@mochi.local`, password: `Mochi-${account}-2026` }),
    });
    return res.status;
  }, who);
  expect(status).toBe(200);
}

/**
 * A learner nobody has seen before (SMS code login), enrolled in `courseId` by buying it with the
 * sandbox checkout, so that the demo learner's work stays as the other tests expect it.
 */
export async function freshLearnerIn(page: Page, courseId: number) {
  await page.goto("/");
  await waitForHydration(page);
  await phoneLogin(page, await openLoginDialog(page), freshPhone("14"));
  await page.getByRole("dialog", { name: "完善资料" }).getByRole("button", { name: "跳过" }).click();
  await loadedAgain(page);
  await page.goto(`/course/${courseId}`);
  await waitForHydration(page);
  await page.getByRole("button", { name: "立即购买" }).click();
  await payInSandbox(page);
}

/** A photo of a practice sheet, drawn in the page and returned as PNG bytes. */
export async function practicePhoto(page: Page, text: string): Promise<Buffer> {
  const dataUrl = await page.evaluate((t) => {
    const canvas = document.createElement("canvas");
    canvas.width = 2400;
    canvas.height = 1800;
    const ctx = canvas.getContext("2d")!;
    ctx.fillStyle = "#f3ead8";
    ctx.fillRect(0, 0, 2400, 1800);
    for (let i = 0; i < 4000; i++) {
      ctx.fillStyle = `rgb(${200 + (i % 40)} ${180 + (i % 60)} ${150 + (i % 80)})`;
      ctx.fillRect((i * 97) % 2400, (i * 61) % 1800, 6, 6);
    }
    ctx.fillStyle = "#222";
    ctx.font = "600px serif";
    ctx.fillText(t, 300, 1200);
    return canvas.toDataURL("image/png");
  }, text);
  return Buffer.from(dataUrl.split(",")[1]!, "base64");
}

/** Puts practice sheets into the open submit dialog and waits until every one is uploaded. */
export async function uploadSheets(page: Page, dialog: Locator, characters: string[]) {
  const photos = await Promise.all(characters.map((c) => practicePhoto(page, c)));
  await dialog
    .locator('input[type="file"]')
    .setInputFiles(photos.map((buffer, i) => ({ name: `sheet-${i + 1}.png`, mimeType: "image/png", buffer })));
  const tiles = dialog.locator(".hw-upload");
  await expect(tiles).toHaveCount(characters.length);
  await expect(tiles.filter({ hasText: "已上传" })).toHaveCount(characters.length, { timeout: 30_000 });
}

/** The lesson's task and the signed-in viewer's work on it, as the API answers. */
export async function lessonWork(page: Page, lessonId: number): Promise<LessonHomework> {
  const res = await page.request.get(`/api/homework/lessons/${lessonId}`);
  expect(res.status()).toBe(200);
  return lessonHomeworkSchema.parse(await res.json());
}

/**
 * On the review canvas: one pen stroke, then (G) a grid where the teacher clicks (`grid`: where
 * across and down the canvas), which brings the task's first model character beside it.
 */
export async function strokeAndGrid(page: Page, grid = { x: 0.5, y: 0.3 }) {
  const canvas = page.getByTestId("review-canvas");
  await expect(canvas.locator("img")).toBeVisible();
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.35, box.y + box.height * 0.4);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + box.width * (0.35 + i * 0.01), box.y + box.height * 0.42);
  await page.mouse.up();
  await expect(canvas.locator("svg path")).toHaveCount(1);
  await page.keyboard.press("g");
  await expect(page.getByRole("button", { name: "格子" })).toHaveAttribute("aria-pressed", "true");
  await page.mouse.click(box.x + box.width * grid.x, box.y + box.height * grid.y);
  await expect(canvas.locator(".review-grid")).toHaveCount(1);
  await expect(canvas.getByRole("img", { name: /范字「.」/ })).toBeVisible();
}

/** The lesson's page with its 交作业 dialog open. */
export async function openHandIn(page: Page, lessonId: number): Promise<Locator> {
  await page.goto(`/video/${lessonId}`);
  await waitForHydration(page);
  const panel = page.getByRole("region", { name: "本课作业" });
  // The panel hydrates on its own after the page (decision 059); until then its button does nothing.
  await waitForPartHydration(panel);
  await panel.getByRole("button", { name: "交作业" }).click();
  const dialog = page.getByRole("dialog", { name: "交作业" });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** The share page's og:image is its poster, a JPEG; its address. */
export async function expectJpegPoster(page: Page) {
  const image = await page.locator('meta[property="og:image"]').first().getAttribute("content");
  expect(image).toMatch(/poster\.jpg$/);
  const poster = await page.request.get(image!);
  expect(poster.headers()["content-type"]).toBe("image/jpeg");
  const bytes = await poster.body();
  expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
  return image!;
}
