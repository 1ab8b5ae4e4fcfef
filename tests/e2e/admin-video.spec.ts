/**
 * A lesson video uploaded by the operator: the upload and the background transcoding show their
 * progress in the lesson editor until 已转码, and the lesson page plays the transcoded video.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";
import { signInDemo } from "./homework-helpers";
import { SHOTS } from "./login-helpers";

test.describe.configure({ mode: "serial" });

const video = (page: Page) => page.locator("video");
const currentTime = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => v.currentTime);

/** A clip made by ffmpeg, long enough for the transcoding to be seen under way. */
function makeClip(): string {
  const dir = path.resolve("test-results", "admin-video");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "clip.mp4");
  execFileSync("ffmpeg", [
    ...["-hide_banner", "-loglevel", "error", "-y"],
    ...["-f", "lavfi", "-i", "testsrc=size=640x360:rate=25:duration=20"],
    ...["-f", "lavfi", "-i", "sine=frequency=440:duration=20"],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", file],
  ]);
  return file;
}

test("an operator uploads a lesson video; it is transcoded and the lesson plays it", async ({ page }) => {
  test.setTimeout(180_000);
  const clip = makeClip();
  const title = `上传视频课 ${Date.now() % 100000}`;
  await signInDemo(page, "operator");
  await page.goto("/admin/courses/new");
  await waitForHydration(page);
  const form = page.getByRole("form", { name: "课程信息" });
  await form.getByLabel("课程名称").fill(title);
  await form.getByLabel("副标题").fill("上传的课时视频");
  await form.getByLabel("售价（元）").fill("68");
  await form.getByLabel("划线价（元）").fill("128");
  await form.getByLabel("封面字").fill("影");
  await form.getByRole("button", { name: "创建课程" }).click();
  await page.waitForURL(/\/admin\/courses\/\d+$/);
  const courseId = Number(new URL(page.url()).pathname.split("/").pop());
  await waitForHydration(page);

  const chapterForm = page.getByRole("form", { name: "添加章节" });
  await chapterForm.getByLabel("新章节名称").fill("第一章 上传");
  await chapterForm.getByRole("button", { name: "添加章节" }).click();
  await expect(page.getByTestId("outline-chapter")).toHaveCount(1);
  await page.getByRole("button", { name: "＋ 添加课时" }).click();
  const newLesson = page.getByRole("form", { name: "新增课时" });
  await newLesson.getByLabel("课时名称").fill("横画演示");
  await newLesson.getByLabel("免费试看").check();
  await newLesson.getByRole("button", { name: "添加课时" }).click();
  await expect(page.getByTestId("outline-lesson")).toHaveCount(1);

  await page.getByTestId("outline-lesson").getByRole("button", { name: "编辑" }).click();
  const upload = page.getByTestId("video-upload");
  await expect(upload.getByRole("alert")).toHaveCount(0);
  await upload.getByLabel("上传视频文件").setInputFiles(clip);
  // The transcoding under way, with its progress, then done with the new sources.
  await expect(upload.getByRole("progressbar", { name: "视频转码进度" })).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: `${SHOTS}/admin-video-progress.png`, fullPage: true });
  await expect(upload.getByRole("status")).toHaveText("已转码", { timeout: 120_000 });
  await expect(upload.getByRole("link", { name: "HLS" })).toHaveAttribute(
    "href",
    /^\/media\/lessons\/[\w-]+\/index\.m3u8$/,
  );
  // The lesson form now holds the upload's address: saving it keeps the new video.
  await expect(page.getByRole("form", { name: "编辑课时 横画演示" }).getByLabel("视频来源")).toHaveValue("url");
  await page.screenshot({ path: `${SHOTS}/admin-video-done.png`, fullPage: true });

  const course = await page.request.get(`/api/admin/courses/${courseId}`);
  const lesson = (await course.json()).chapters[0].lessons[0] as {
    id: number;
    videoKey: string;
    durationSeconds: number;
  };
  expect(lesson).toMatchObject({ videoKey: "upload", durationSeconds: 20 });

  await page.getByRole("button", { name: "上架", exact: true }).click();
  await expect(page.getByTestId("course-status")).toHaveText("已上架");

  try {
    await page.goto(`/video/${lesson.id}`);
    await waitForHydration(page);
    await expect(video(page)).toHaveAttribute("poster", /^\/media\/lessons\/[\w-]+\/poster\.jpg$/);
    await video(page).evaluate((v: HTMLVideoElement) => {
      v.muted = true;
    });
    await page
      .getByRole("region", { name: /^视频播放器/ })
      .getByRole("button", { name: "播放" })
      .first()
      .click();
    await expect.poll(() => currentTime(page), { message: "the uploaded video plays" }).toBeGreaterThan(1.5);
    expect(await video(page).evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual([640, 360]);
    await page.screenshot({ path: `${SHOTS}/admin-video-lesson.png` });
  } finally {
    // Taken off sale again, so the browser tests after this one see the demo catalogue as seeded.
    const unpublished = await page.request.post(`/api/admin/courses/${courseId}/unpublish`, {
      data: {},
      headers: { Origin: new URL(page.url()).origin },
    });
    expect(unpublished.status()).toBe(200);
  }
});
