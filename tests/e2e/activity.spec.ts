/**
 * Taking part in an activity in a real browser: a new learner signs up for 笔墨研习社, checks in
 * with what they practised (the practice diary then shows it), finds the activity under 我的活动,
 * and opens the activity's 临写作业 on its lesson, where 交作业 is offered.
 */
import { mkdirSync } from "node:fs";
import { expect, test, waitForHydration } from "./fixtures";
import { newLearnerAt } from "./login-helpers";

const SHOTS = "test-results/shots-activity";
mkdirSync(SHOTS, { recursive: true });

test("a learner signs up, checks in into the diary and opens the activity's homework", async ({ page }) => {
  const path = "/activitys/bmyx-autumn";
  await page.goto(path);
  await waitForHydration(page);
  const join = page.getByRole("region", { name: "参加活动" });
  await expect(join.getByRole("link", { name: "登录后报名" })).toBeVisible();
  await expect(join).toContainText("登录并报名后可以提交临写作业");

  await newLearnerAt(page, path, "15");

  await join.getByRole("button", { name: "报名参加" }).click();
  await expect(join.getByRole("status")).toHaveText("报名成功，活动期间每天可以打卡一次");
  await expect(join.getByTestId("signup-state")).toHaveText("已报名");
  await expect(join.getByTestId("check-in-days")).toHaveText("0");

  const form = join.getByRole("form", { name: "今日打卡" });
  await form.getByLabel("练了多少分钟").fill("25");
  await form.getByLabel("临写了哪些字（可不填）").fill("永和九年");
  await form.getByRole("button", { name: "今日打卡" }).click();
  await expect(join.getByRole("status")).toContainText("打卡成功，已记入今天的练字日记");
  await expect(join.getByTestId("check-in-days")).toHaveText("1");
  await expect(join).toContainText("今天已经打过卡了，明天再来");
  await page.screenshot({ path: `${SHOTS}/activity-signed-in.png`, fullPage: true });

  // The practice diary has today's entry with what was practised.
  await join.getByRole("link", { name: "练字日记" }).click();
  await page.waitForURL("**/my/dairy");
  await waitForHydration(page);
  await expect(page.getByLabel("练了多少分钟")).toHaveValue("25");
  await expect(page.getByLabel("练了哪些字")).toHaveValue("永和九年");

  // 我的活动 lists the sign-up with its check-in.
  await page.goto("/my/activities");
  await waitForHydration(page);
  const item = page.getByRole("listitem").filter({ hasText: "笔墨研习社 · 秋季" });
  await expect(item).toContainText("已报名");
  await expect(item).toContainText("已打卡 1 天");
  await expect(item).toContainText("今天已打卡");
  await page.screenshot({ path: `${SHOTS}/my-activities.png`, fullPage: true });

  // The activity's homework, through the homework flow on its lesson.
  await page.goto(path);
  await waitForHydration(page);
  await join.getByRole("link", { name: "去交临写作业" }).click();
  await page.waitForURL(/\/video\/\d+/);
  await waitForHydration(page);
  const homework = page.getByRole("region", { name: "本课作业" });
  await expect(homework.getByRole("button", { name: "交作业" })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/activity-homework.png`, fullPage: false });
});
