/**
 * The staff side end to end: the demo operator builds a course (chapter, lesson, homework task),
 * publishes it, and a new learner finds it in search and buys it; the demo teacher moves their live
 * session and a learner who booked it sees the new time on the live page and in their calendar;
 * the audit log shows both. Stationery stock moves with a reason into the variant's history.
 */

import { formatDateTime, formatMonthDayTime } from "../../shared/format";
import { payInSandbox } from "./checkout";
import { expect, test, waitForHydration } from "./fixtures";
import { signInDemo } from "./homework-helpers";
import { SHOTS, signInNewLearner } from "./login-helpers";

test.describe.configure({ mode: "serial" });

test("an operator builds and publishes a course; a learner finds it and buys it", async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  const title = `颜体楷书精讲 ${Date.now() % 100000}`;
  await signInDemo(page, "operator");
  await page.goto("/admin/courses");
  await waitForHydration(page);
  await expect(page.getByRole("heading", { name: "课程管理", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "新建课程" }).click();
  await waitForHydration(page);

  const form = page.getByRole("form", { name: "课程信息" });
  await form.getByLabel("课程名称").fill(title);
  await form.getByLabel("副标题").fill("从颜勤礼碑入手");
  await form.getByLabel("售价（元）").fill("68");
  await form.getByLabel("划线价（元）").fill("128");
  await form.getByLabel("封面字").fill("颜");
  await form.getByRole("button", { name: "创建课程" }).click();
  await page.waitForURL(/\/admin\/courses\/\d+$/);
  const courseId = Number(new URL(page.url()).pathname.split("/").pop());
  await waitForHydration(page);

  const chapterForm = page.getByRole("form", { name: "添加章节" });
  await chapterForm.getByLabel("新章节名称").fill("第一章 基本笔画");
  await chapterForm.getByRole("button", { name: "添加章节" }).click();
  await expect(page.getByTestId("outline-chapter")).toHaveCount(1);
  await page.getByRole("button", { name: "＋ 添加课时" }).click();
  const lessonForm = page.getByRole("form", { name: "新增课时" });
  await lessonForm.getByLabel("课时名称").fill("点画");
  await lessonForm.getByLabel("免费试看").check();
  await lessonForm.getByRole("button", { name: "添加课时" }).click();
  await expect(page.getByTestId("outline-lesson")).toHaveCount(1);

  await page.getByTestId("outline-lesson").getByRole("button", { name: "编辑" }).click();
  const task = page.getByRole("form", { name: "课时作业" });
  await task.getByLabel("作业标题").fill("临写三个点");
  await task.getByLabel("范字").fill("心");
  await task.getByRole("button", { name: "布置作业" }).click();
  await expect(page.getByTestId("outline-lesson").getByText("作业", { exact: true })).toBeVisible();

  await page.getByRole("button", { name: "上架", exact: true }).click();
  await expect(page.getByTestId("course-status")).toHaveText("已上架");
  await page.screenshot({ path: `${SHOTS}/admin-course-edit.png`, fullPage: true });

  // A new learner finds it by searching and buys it.
  const learner = await browser.newContext({ baseURL });
  const lp = await learner.newPage();
  await signInNewLearner(lp, "15");
  await lp.goto(`/search?q=${encodeURIComponent(title)}`);
  await waitForHydration(lp);
  await lp.getByRole("link", { name: title }).first().click();
  await lp.waitForURL(`**/course/${courseId}`);
  await waitForHydration(lp);
  await expect(lp.getByRole("heading", { name: title })).toBeVisible();
  await lp.getByRole("button", { name: "立即购买" }).click();
  await payInSandbox(lp);
  await lp.goto("/my/allcourse");
  await expect(lp.getByText(title).first()).toBeVisible();
  await learner.close();

  // The audit log shows what the operator did.
  await page.goto(`/admin/audit?targetType=course&q=${courseId}`);
  await waitForHydration(page);
  await expect(page.getByRole("cell", { name: "course.publish" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "course.create" })).toBeVisible();
  // Taken off sale again, so the browser tests after this one see the demo catalogue as seeded.
  const unpublished = await page.request.post(`/api/admin/courses/${courseId}/unpublish`, {
    data: {},
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(unpublished.status()).toBe(200);

  // Books: stock moves with a reason and is kept as a history.
  await page.goto("/admin/books?sort=id&dir=asc");
  await waitForHydration(page);
  const firstBook = page.getByRole("table", { name: "图书" }).locator('a[href^="/admin/books/"]').first();
  const bookHref = await firstBook.getAttribute("href");
  await firstBook.click();
  await page.waitForURL(`**${bookHref}`);
  await waitForHydration(page);
  const stock = page.getByRole("form", { name: "调整库存" });
  await stock.getByLabel("数量").fill("5");
  await stock.getByLabel("原因").fill("盘点补录");
  await stock.getByRole("button", { name: "调整库存" }).click();
  await expect(page.getByRole("cell", { name: "盘点补录" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/admin-book.png`, fullPage: true });

  // Stationery: a variant's stock moves with a reason and the change shows in its history.
  await page.goto("/admin/stationery?sort=id&dir=asc");
  await waitForHydration(page);
  const firstItem = page.getByRole("table", { name: "文房" }).locator('a[href^="/admin/stationery/"]').first();
  const itemHref = await firstItem.getAttribute("href");
  await firstItem.click();
  await page.waitForURL(`**${itemHref}`);
  await waitForHydration(page);
  const variant = page.getByRole("form", { name: /^调整库存 / }).first();
  const variantName = ((await variant.getAttribute("aria-label")) ?? "").replace(/^调整库存 /, "");
  const heading = page.getByRole("heading", { name: new RegExp(`：${variantName} · 库存`) });
  const before = Number((/库存 (\d+) 件/.exec((await heading.textContent()) ?? "") ?? [])[1]);
  await variant.getByLabel("数量").fill("-2");
  await variant.getByLabel("原因").fill("样品损耗");
  await variant.getByRole("button", { name: "调整库存" }).click();
  const history = page.getByRole("table", { name: `${variantName} 的库存变动记录` });
  const row = history.getByRole("row").filter({ hasText: "样品损耗" });
  await expect(row).toBeVisible();
  await expect(row.getByRole("cell").nth(1)).toHaveText("-2");
  await expect(row.getByRole("cell").nth(2)).toHaveText(String(before - 2));
  await expect(heading).toContainText(`库存 ${before - 2} 件`);
  // Put back, so the shop's browser tests after this one see the seeded stock.
  await variant.getByLabel("数量").fill("2");
  await variant.getByLabel("原因").fill("样品归还");
  await variant.getByRole("button", { name: "调整库存" }).click();
  await expect(history.getByRole("row").filter({ hasText: "样品归还" })).toBeVisible();
  await expect(heading).toContainText(`库存 ${before} 件`);
  await page.screenshot({ path: `${SHOTS}/admin-stationery.png`, fullPage: true });
  expect(consoleErrors).toEqual([]);
});

test("a teacher moves a live session and the learner sees the new time", async ({ page, browser, baseURL }) => {
  // The operator schedules a session for the demo teacher (林墨) tomorrow.
  await signInDemo(page, "operator");
  const teachers = (await (await page.request.get("/api/admin/teachers")).json()) as {
    teachers: Array<{ id: number; name: string }>;
  };
  const teacherId = teachers.teachers.find((t) => t.name === "林墨")!.id;
  const start = new Date(Date.now() + 26 * 3_600_000);
  start.setUTCMinutes(0, 0, 0);
  const created = await page.request.post("/api/admin/live", {
    headers: { Origin: baseURL! },
    data: {
      title: `楷书直播答疑 ${Date.now() % 100000}`,
      courseId: null,
      teacherId,
      startsAt: start.toISOString(),
      endsAt: new Date(start.getTime() + 3_600_000).toISOString(),
      coverChar: "答",
      isOpen: true,
    },
  });
  expect(created.status()).toBe(201);
  const live = (await created.json()) as { id: number; title: string };
  await page.context().clearCookies();

  // A learner books the session: it is in their calendar at the first time.
  const learner = await browser.newContext({ baseURL });
  const lp = await learner.newPage();
  await signInNewLearner(lp, "15");
  const booked = await lp.request.post(`/api/live/${live.id}/booking`, { data: {}, headers: { Origin: baseURL! } });
  expect(booked.status()).toBe(200);
  const china = (d: Date) => new Date(d.getTime() + 8 * 3_600_000).toISOString();
  const calendarDay = async (at: Date) => {
    const date = china(at).slice(0, 10);
    await lp.goto(`/my/calendar?month=${date.slice(0, 7)}`);
    await waitForHydration(lp);
    await lp.locator(`.cal-day[data-date="${date}"]`).click();
    const day = lp.getByTestId("day-list");
    await expect(day.getByRole("heading", { name: date })).toBeVisible();
    return day.getByRole("link", { name: new RegExp(`直播：${live.title}`) });
  };
  const first = await calendarDay(start);
  await expect(first).toContainText(china(start).slice(11, 16));
  await expect(first).toContainText("已预约");

  await signInDemo(page, "teacher");
  await page.goto("/teach/live");
  await waitForHydration(page);
  await page.getByRole("link", { name: live.title }).click();
  await page.waitForURL(`**/teach/live/${live.id}`);
  await waitForHydration(page);
  await page.getByRole("button", { name: "检查推流" }).click();
  await expect(page.getByTestId("stream-verdict")).toHaveText(/推流正常/, { timeout: 15_000 });

  const moved = new Date(start.getTime() + 2 * 3_600_000);
  const local = (d: Date) => new Date(d.getTime() + 8 * 3_600_000).toISOString().slice(0, 16);
  const form = page.getByRole("form", { name: "调整时间" });
  await form.getByLabel("开始时间（北京时间）").fill(local(moved));
  await form.getByLabel("结束时间（北京时间）").fill(local(new Date(moved.getTime() + 3_600_000)));
  await form.getByRole("button", { name: "调整时间" }).click();
  await expect(page.getByRole("status").filter({ hasText: "时间已调整" })).toBeVisible();
  await expect(page.getByTestId("live-starts")).toHaveText(formatDateTime(moved));
  await page.screenshot({ path: `${SHOTS}/teach-live.png`, fullPage: true });

  // The learner's view of the live page and their calendar show the new time at once.
  await lp.goto(`/live/${live.id}`);
  await expect(lp.getByText(formatMonthDayTime(moved)).first()).toBeVisible();
  const after = await calendarDay(moved);
  await expect(after).toContainText(
    `${china(moved).slice(11, 16)}–${china(new Date(moved.getTime() + 3_600_000)).slice(11, 16)}`,
  );
  await expect(after).not.toContainText(china(start).slice(11, 16));
  await lp.screenshot({ path: `${SHOTS}/calendar-moved.png`, fullPage: true });
  await learner.close();

  // The audit log shows the move.
  await page.context().clearCookies();
  await signInDemo(page, "operator");
  await page.goto(`/admin/audit?targetType=live&q=${live.id}`);
  await waitForHydration(page);
  await expect(page.getByRole("cell", { name: "live.move" })).toBeVisible();
});
