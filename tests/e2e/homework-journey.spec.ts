/**
 * Homework from both ends, in two browsers: a fresh learner hands in photos on a lesson page,
 * the demo teacher finds the work with the queue's course and lesson filters and reviews it (or
 * returns it), and the learner sees the result: the drawing over the photo, the grid and the
 * model character, the notice in the header, the coins in the ledger, the wall and its share
 * page; or the reason, a new hand-in and both attempts in the viewer.
 */
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { queueSchema } from "../../shared/contracts/homework";
import { coinRules } from "../../shared/currency";
import { dialogsSettled, expect, otherBrowser, test, waitForHydration } from "./fixtures";
import {
  expectJpegPoster,
  freshLearnerIn,
  lessonWork,
  openHandIn,
  signInDemo,
  strokeAndGrid,
  uploadSheets,
} from "./homework-helpers";

const SHOTS = "test-results/shots-homework";
mkdirSync(SHOTS, { recursive: true });

/** The demo teacher's first lesson with a task (from the queue's lesson list): where the learner hands in. */
async function teachersLesson(teacher: Page) {
  const res = await teacher.request.get("/api/teach/homework/queue");
  expect(res.status()).toBe(200);
  const lesson = queueSchema.parse(await res.json()).lessons[0];
  expect(lesson).toBeDefined();
  return lesson!;
}

/** The demo teacher in a browser of their own, and a fresh learner (on `page`) in the course of the teacher's lesson. */
async function teacherAndLearner(page: Page, browser: Browser, baseURL: string) {
  const teacher = await otherBrowser(browser, baseURL);
  await signInDemo(teacher.page, "teacher");
  const lesson = await teachersLesson(teacher.page);
  await freshLearnerIn(page, lesson.courseId);
  return { teacher, lesson };
}

/** The learner's coins as the exchange page shows them. */
async function coinBalance(page: Page): Promise<number> {
  await page.goto("/my/exchange");
  await waitForHydration(page);
  const text = await page.getByTestId("coin-balance").textContent();
  return Number((text ?? "").replace(/,/g, ""));
}

/** The header's notices button reads "通知，N 条未读". */
async function unreadNotices(page: Page): Promise<number> {
  const label = await page.getByRole("banner").locator(".notices-popover__summary").getAttribute("aria-label");
  const match = /^通知，(\d+) 条未读$/.exec(label ?? "");
  expect(match, `notices label: ${label}`).not.toBeNull();
  return Number(match![1]);
}

/** The teacher opens the queue, narrows it to the course and the lesson, and claims the attempt. */
async function claimFromQueue(
  teacher: Page,
  lesson: { id: number; courseId: number; title: string },
  attemptId: string,
) {
  await teacher.goto("/teach/homework");
  await waitForHydration(teacher);
  // Lessons belong to a course: the lesson select shows once a course is chosen.
  await expect(teacher.getByRole("combobox", { name: "课时" })).toHaveCount(0);
  await teacher.getByRole("combobox", { name: "课程" }).selectOption(String(lesson.courseId));
  await expect(teacher).toHaveURL(`/teach/homework?courseId=${lesson.courseId}`);
  await teacher.getByRole("combobox", { name: "课时" }).selectOption(String(lesson.id));
  await expect(teacher).toHaveURL(`/teach/homework?courseId=${lesson.courseId}&lessonId=${lesson.id}`);
  const item = teacher.locator(`.queue-item[data-attempt="${attemptId}"]`);
  await expect(item).toBeVisible();
  for (const what of await teacher.locator(".queue-item__what").all()) await expect(what).toContainText(lesson.title);
  await item.getByRole("button", { name: "开始批改" }).click();
  await expect(teacher).toHaveURL(`/teach/homework/review?attempt=${attemptId}`);
  await expect(teacher.getByText(/为你保留至 \d{2}:\d{2}/)).toBeVisible();
}

test("three photos handed in, reviewed 优 in another browser: drawing, grid, model character, notice, coins, wall", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  test.setTimeout(240_000);
  const { teacher, lesson } = await teacherAndLearner(page, browser, baseURL!);
  const coinsBefore = await coinBalance(page);
  const noticesBefore = await unreadNotices(page);

  // Slowed down a little so that the progress of each upload can be seen.
  await page.route(/\/api\/homework\/tasks\/\d+\/photos$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await route.continue();
  });
  const dialog = await openHandIn(page, lesson.id);
  const panel = page.getByRole("region", { name: "本课作业" });
  const uploaded = uploadSheets(page, dialog, ["永", "和", "九"]);
  await expect(dialog.getByRole("progressbar", { name: "第 1 张照片的上传进度" })).toBeVisible();
  await expect(dialog.getByText(/^上传中 \d+%$/).first()).toBeVisible();
  await uploaded;
  await dialog.getByLabel("允许展示在作业墙").check();
  await dialog.getByRole("button", { name: "提交作业" }).click();
  await expect(dialog).toBeHidden();
  await expect(panel.getByRole("status")).toContainText("作业已提交");
  await page.unrouteAll();
  const handedIn = (await lessonWork(page, lesson.id)).submission!;
  expect(handedIn.attempts).toHaveLength(1);
  expect(handedIn.attempts[0]!.photos).toHaveLength(3);
  const attemptId = handedIn.attempts[0]!.id;
  const modelCharacter = Array.from(handedIn.task.characters)[0]!;

  // The teacher, in a browser of their own.
  await claimFromQueue(teacher.page, lesson, attemptId);
  // The grid over the first sheet's character (drawn at the left, half-way down).
  await strokeAndGrid(teacher.page, { x: 0.22, y: 0.52 });
  await teacher.page.getByRole("radio", { name: "优", exact: true }).check();
  await teacher.page.getByRole("textbox", { name: "评语", exact: true }).fill("结构匀称，起笔再干脆些。");
  await teacher.page.getByRole("button", { name: "保存", exact: true }).click();
  await expect(teacher.page).toHaveURL("/teach/homework");
  await expect(teacher.page.getByRole("status").filter({ hasText: "已保存批改" })).toBeVisible();

  // The learner: the review in 我的作业, with the drawing, a grid and the model character.
  await page.goto("/my/homework");
  await waitForHydration(page);
  expect(await unreadNotices(page)).toBe(noticesBefore + 1);
  const row = page.locator(".my-hw").filter({ hasText: handedIn.task.title });
  await expect(row.locator(".hw-state")).toHaveText("已批改");
  await row.getByRole("button", { name: /查看批改/ }).click();
  const viewer = page.getByRole("dialog", { name: "作业批改" });
  await expect(viewer.getByRole("img", { name: "评级：优" }).first()).toBeVisible();
  await expect(viewer.getByText("结构匀称，起笔再干脆些。")).toBeVisible();
  const firstPhoto = viewer.locator(".hw-photo").first();
  await expect(firstPhoto.locator("img")).toHaveJSProperty("complete", true);
  const marks = firstPhoto.locator(".hw-layer--drawing");
  await expect(marks).toBeVisible();
  await expect(marks.locator("path")).toHaveCount(1);
  // The learner's character beside the model one, cut where the teacher placed the grid.
  const pair = viewer.locator(".hw-attempt__pairs");
  await expect(pair.getByRole("img", { name: `范字「${modelCharacter}」` })).toBeVisible();
  await expect(pair.getByRole("img", { name: `学员写的「${modelCharacter}」` })).toBeVisible();
  await viewer.getByRole("radio", { name: "米字格" }).check();
  await expect(firstPhoto.locator(".hw-layer--grid .hw-grid")).toHaveCount(1);
  await expect(firstPhoto.locator(".hw-layer--grid")).toBeVisible();
  await dialogsSettled(page);
  await viewer.screenshot({ path: `${SHOTS}/learner-viewer-reviewed.png` });
  await viewer.locator(".hw-review__note").scrollIntoViewIfNeeded();
  await viewer.screenshot({ path: `${SHOTS}/learner-viewer-pair.png` });
  await viewer.getByLabel("显示老师批注").uncheck();
  await expect(firstPhoto.locator(".hw-layer--drawing")).toHaveCount(0);
  await viewer.getByLabel("显示老师批注").check();
  await expect(firstPhoto.locator(".hw-layer--drawing path")).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(viewer).toBeHidden();

  // The notice in the header.
  await page.getByRole("banner").locator(".notices-popover__summary").click();
  const notices = page.getByRole("region", { name: "通知列表" });
  await expect(notices.locator(".notice-item--new").first()).toContainText(`作业已批改：${handedIn.task.title}`);
  await expect(notices.getByText("评级：优。结构匀称，起笔再干脆些。")).toBeVisible();
  await expect(page.getByRole("banner").locator(".notices-popover__summary")).toHaveAttribute(
    "aria-label",
    "通知，0 条未读",
  );

  // The coins: one hand-in and one 优, each a line in the ledger.
  const earned = coinRules.homework_submitted.amount + coinRules.homework_excellent.amount;
  expect(await coinBalance(page)).toBe(coinsBefore + earned);
  await page.goto("/my/exchange/record/coin");
  await waitForHydration(page);
  const ledger = page.locator(".record-table tbody tr");
  await expect(ledger.filter({ hasText: coinRules.homework_submitted.name })).toContainText(
    `+${coinRules.homework_submitted.amount}`,
  );
  await expect(ledger.filter({ hasText: coinRules.homework_excellent.name })).toContainText(
    `+${coinRules.homework_excellent.amount}`,
  );

  // Opted in and rated 优: on the wall, with a share page whose link preview is a JPEG.
  const reviewed = (await lessonWork(page, lesson.id)).submission!;
  expect(reviewed.shareId).not.toBeNull();
  await page.goto("/homework");
  await waitForHydration(page);
  const card = page.locator(`.wall-card[href="/homework/share?id=${reviewed.shareId}"]`);
  await expect(card).toBeVisible();
  await card.click();
  await expect(page).toHaveURL(`/homework/share?id=${reviewed.shareId}`);
  await expect(page.getByRole("img", { name: "评级：优" }).first()).toBeVisible();
  await expectJpegPoster(page);

  expect(consoleErrors).toEqual([]);
  expect(teacher.errors).toEqual([]);
  await teacher.context.close();
});

test("a returned work: the learner reads the reason, hands in again, and the viewer keeps both attempts", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  test.setTimeout(240_000);
  const { teacher, lesson } = await teacherAndLearner(page, browser, baseURL!);

  const first = await openHandIn(page, lesson.id);
  await uploadSheets(page, first, ["永"]);
  await first.getByRole("button", { name: "提交作业" }).click();
  await expect(first).toBeHidden();
  const handedIn = (await lessonWork(page, lesson.id)).submission!;
  const attemptId = handedIn.attempts[0]!.id;

  const reason = "照片有反光，看不清笔画；请在光线均匀处平拍后重新提交。";
  await claimFromQueue(teacher.page, lesson, attemptId);
  await teacher.page.getByRole("button", { name: "退回重写" }).click();
  const returning = teacher.page.getByRole("dialog", { name: "退回重写" });
  await returning.getByLabel("退回的原因（学员会看到）").fill(reason);
  await returning.getByRole("button", { name: "确认退回" }).click();
  await expect(teacher.page).toHaveURL("/teach/homework");
  await expect(teacher.page.getByRole("status").filter({ hasText: "已退回重写" })).toBeVisible();

  await page.goto("/my/homework");
  await waitForHydration(page);
  const row = page.locator(".my-hw").filter({ hasText: handedIn.task.title });
  await expect(row.locator(".hw-state")).toHaveText("退回重写");
  await row.getByRole("button", { name: /查看并重交/ }).click();
  const viewer = page.getByRole("dialog", { name: "作业批改" });
  await expect(viewer.locator(".hw-review__reason")).toHaveText(`退回原因：${reason}`);
  await viewer.getByRole("button", { name: "重新提交" }).click();
  const again = page.getByRole("dialog", { name: "重新提交（第 2 次）" });
  await expect(again).toBeVisible();
  await uploadSheets(page, again, ["和"]);
  await again.getByRole("button", { name: "提交作业" }).click();
  await expect(again).toBeHidden();
  await expect(row.locator(".hw-state")).toHaveText("待批改");
  await expect(row).toContainText("第 2 次提交");

  await row.getByRole("button", { name: /查看/ }).click();
  await expect(viewer).toBeVisible();
  const tabs = viewer.getByRole("group", { name: "提交次数" });
  await expect(tabs.getByRole("button")).toHaveText(["第 1 次 · 退回重写", "第 2 次 · 待批改"]);
  await expect(tabs.getByRole("button", { name: "第 2 次 · 待批改" })).toHaveAttribute("aria-pressed", "true");
  await expect(viewer.getByText("老师还没有批改，批改后会通知你。")).toBeVisible();
  await tabs.getByRole("button", { name: "第 1 次 · 退回重写" }).click();
  await expect(viewer.locator(".hw-review__reason")).toHaveText(`退回原因：${reason}`);
  await viewer.getByLabel("各次并排对比").check();
  await expect(viewer.locator(".hw-attempt")).toHaveCount(2);
  await expect(viewer.getByRole("img", { name: /^第 1 次提交的第 1 张照片$/ })).toBeVisible();
  await expect(viewer.getByRole("img", { name: /^第 2 次提交的第 1 张照片$/ })).toBeVisible();

  expect(consoleErrors).toEqual([]);
  expect(teacher.errors).toEqual([]);
  await teacher.context.close();
});
