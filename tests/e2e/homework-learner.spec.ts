/**
 * The learner's side of homework in a browser: handing in photos from the lesson page with a
 * progress bar each, the list in 我的作业, the wall with its script filter, and a share page
 * with a JPEG poster as its link preview (and 410 once its learner takes it off the wall).
 */
import type { Page } from "@playwright/test";
import { HOMEWORK_UNSUPPORTED_TYPE, lessonHomeworkSchema } from "../../shared/contracts/homework";
import { expect, test, waitForHydration, waitForPartHydration } from "./fixtures";
import { expectJpegPoster, practicePhoto } from "./homework-helpers";

/** The demo learner (enrolled in the demo courses, with work in every state). */
async function signInDemoLearner(page: Page) {
  const res = await page.request.post("/api/auth/email/login", {
    data: { email: "learner@mochi.local", password: "Mochi-learner-2026" },
  });
  expect(res.status()).toBe(200);
}

/** The learner's wall choice, sent from the page (state-changing calls must come from our pages). */
async function setWallChoice(page: Page, submissionId: string, showOnWall: boolean): Promise<number> {
  return page.evaluate(
    async ([id, show]) => {
      const res = await fetch(`/api/homework/submissions/${id}`, {
        method: "PATCH",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ showOnWall: show }),
      });
      return res.status;
    },
    [submissionId, showOnWall] as const,
  );
}

/** A lesson whose task the demo learner has not handed in yet. */
async function openTaskLesson(page: Page): Promise<number> {
  for (let id = 1; id <= 120; id++) {
    const res = await page.request.get(`/api/homework/lessons/${id}`);
    if (!res.ok()) continue;
    const view = lessonHomeworkSchema.parse(await res.json());
    if (view.task && !view.submission && view.canSubmit.allowed) return id;
  }
  throw new Error("no lesson with an open task for the demo learner");
}

test("a learner hands in three photos with a progress bar each and finds them 待批改 in 我的作业", async ({
  page,
  consoleErrors,
}) => {
  await page.goto("/");
  await signInDemoLearner(page);
  const lessonId = await openTaskLesson(page);
  // Slow the uploads down a little so the progress can be seen.
  await page.route(/\/api\/homework\/tasks\/\d+\/photos$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue();
  });

  await page.goto(`/video/${lessonId}`);
  await waitForHydration(page);
  const panel = page.getByRole("region", { name: "本课作业" });
  await expect(panel.getByRole("img", { name: /^范字「.」$/ }).first()).toBeVisible();
  // The panel hydrates on its own after the page (decision 059); until then its button does nothing.
  await waitForPartHydration(panel);
  await panel.getByRole("button", { name: "交作业" }).click();
  const dialog = page.getByRole("dialog", { name: "交作业" });
  await expect(dialog).toBeVisible();

  // A file that is no photo is refused at once, in Chinese.
  const input = dialog.locator('input[type="file"]');
  await input.setInputFiles({ name: "animation.gif", mimeType: "image/gif", buffer: Buffer.from("GIF89a") });
  await expect(dialog.getByRole("alert")).toHaveText(HOMEWORK_UNSUPPORTED_TYPE);

  const photos = await Promise.all(["永", "和", "九"].map((c) => practicePhoto(page, c)));
  await input.setInputFiles(photos.map((buffer, i) => ({ name: `sheet-${i + 1}.png`, mimeType: "image/png", buffer })));
  const tiles = dialog.locator(".hw-upload");
  await expect(tiles).toHaveCount(3);
  await expect(dialog.getByText(/^上传中 \d+%$/).first()).toBeVisible();
  await expect(dialog.getByRole("progressbar", { name: "第 1 张照片的上传进度" })).toBeVisible();
  await expect(tiles.filter({ hasText: "已上传" })).toHaveCount(3, { timeout: 20_000 });
  for (const bar of await dialog.getByRole("progressbar").all()) await expect(bar).toHaveAttribute("value", "1");

  // Reorder by keyboard: the third photo moves to the front and keeps the focus.
  const thumbs = dialog.locator(".hw-upload__thumb img");
  const third = await thumbs.nth(2).getAttribute("src");
  await dialog.getByRole("button", { name: "第 3 张往前移" }).focus();
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("button", { name: "第 2 张往前移" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(thumbs.first()).toHaveAttribute("src", third!);
  await expect(dialog.getByRole("button", { name: "第 1 张往后移" })).toBeFocused();

  await dialog.getByLabel("给老师的留言（选填）").fill("横画总是写不平，请老师看看。");
  await expect(dialog.getByText("14 / 500")).toBeVisible();
  await dialog.getByLabel("允许展示在作业墙").check();
  await dialog.getByRole("button", { name: "提交作业" }).click();
  await expect(dialog).toBeHidden();
  await expect(panel.getByRole("status")).toContainText("作业已提交");
  await expect(panel.getByText("待批改")).toBeVisible();

  await page.goto("/my/homework?state=waiting");
  await waitForHydration(page);
  await expect(page.getByRole("link", { name: /待批改/ })).toHaveAttribute("aria-current", "page");
  const rows = page.locator(".my-hw");
  await expect(rows.first()).toBeVisible();
  for (const row of await rows.all()) await expect(row.locator(".hw-state")).toHaveText("待批改");
  await rows.first().getByRole("button", { name: /查看/ }).click();
  const viewer = page.getByRole("dialog", { name: "作业批改" });
  await expect(viewer.getByText("横画总是写不平，请老师看看。")).toBeVisible();
  await expect(viewer.getByRole("img", { name: /第 1 次提交的第 \d 张照片/ })).toHaveCount(3);
  expect(consoleErrors).toEqual([]);
});

test("the wall shows excellent work and filters it by script in the URL", async ({ page, consoleErrors }) => {
  await page.goto("/homework");
  await waitForHydration(page);
  const cards = page.locator(".wall-card");
  await expect(cards.first()).toBeVisible();
  await expect(cards.first().getByRole("img", { name: "评级：优" })).toBeVisible();
  await expect(cards.first()).toHaveAttribute("href", /^\/homework\/share\?id=/);

  const filter = page.getByRole("navigation", { name: "按书体筛选" });
  await filter.getByRole("link", { name: "楷书" }).click();
  await expect(page).toHaveURL(/\/homework\?script=kai$/);
  await expect(filter.getByRole("link", { name: "楷书" })).toHaveAttribute("aria-current", "page");
  await expect(cards.first()).toBeVisible();

  await filter.getByRole("link", { name: "篆书" }).click();
  await expect(page).toHaveURL(/script=zhuan/);
  await expect(page.getByText("还没有篆书作品上墙")).toBeVisible();
  await page.reload();
  await expect(filter.getByRole("link", { name: "篆书" })).toHaveAttribute("aria-current", "page");
  expect(consoleErrors).toEqual([]);
});

test("a share page has a JPEG poster as og:image, and answers 410 once its learner takes it off the wall", async ({
  page,
}) => {
  await page.goto("/homework");
  await waitForHydration(page);
  await page.locator(".wall-card").first().click();
  await expect(page).toHaveURL(/\/homework\/share\?id=/);
  // The address changes before React has drawn the new page: wait for the share page's own link.
  await expect(page.getByRole("link", { name: "下载海报" })).toBeVisible();
  await expect(page.getByRole("img", { name: "评级：优" })).toBeVisible();
  const image = await expectJpegPoster(page);
  await expect(page.getByRole("link", { name: "下载海报" })).toHaveAttribute(
    "href",
    image!.replace(/^https?:\/\/[^/]+/, ""),
  );

  // The demo learner's own work on the wall: taken off, its page says so with 410.
  await signInDemoLearner(page);
  const mine = await (await page.request.get("/api/homework/mine?state=reviewed")).json();
  let shareId: string | null = null;
  let submissionId = "";
  for (const item of mine.items as { id: string }[]) {
    const submission = await (await page.request.get(`/api/homework/submissions/${item.id}`)).json();
    if (submission.shareId) {
      shareId = submission.shareId;
      submissionId = item.id;
      break;
    }
  }
  expect(shareId).not.toBeNull();
  expect(await setWallChoice(page, submissionId, false)).toBe(200);
  const gone = await page.goto(`/homework/share?id=${shareId}`);
  expect(gone?.status()).toBe(410);
  await expect(page.getByText("作品已撤下")).toBeVisible();
  expect(await setWallChoice(page, submissionId, true)).toBe(200);
});
