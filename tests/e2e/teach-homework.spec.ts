/**
 * The teaching area end to end, on the demo seed: the demo teacher claims the oldest waiting
 * work, draws a stroke, places a grid, rates it 优 and saves; a learner is shown the 404 page.
 */
import { expect, test, waitForHydration } from "./fixtures";
import { signInDemo as signIn, strokeAndGrid } from "./homework-helpers";

test("a teacher claims a waiting attempt, marks it, places a grid, rates it 优 and saves", async ({
  page,
  consoleErrors,
}) => {
  await signIn(page, "teacher");
  await page.goto("/teach/homework");
  await expect(page.getByRole("heading", { name: "作业批改", level: 1 })).toBeVisible();
  await waitForHydration(page);
  const first = page.locator(".queue-item").first();
  await expect(first.getByText(/^等待 /)).toBeVisible();
  const attemptId = await first.getAttribute("data-attempt");
  await first.getByRole("button", { name: "开始批改" }).click();
  await expect(page).toHaveURL(`/teach/homework/review?attempt=${attemptId}`);
  await expect(page.getByText(/为你保留至 \d{2}:\d{2}/)).toBeVisible();

  await strokeAndGrid(page);

  await page.getByRole("radio", { name: "优", exact: true }).check();
  await page.getByRole("textbox", { name: "评语", exact: true }).fill("结构匀称，起笔再干脆些。");
  const review = page.waitForRequest((r) => r.url().endsWith(`/attempts/${attemptId}/review`) && r.method() === "POST");
  await page.getByRole("button", { name: "保存", exact: true }).click();
  const sent = (await review).postDataJSON() as {
    level: string;
    comment: string;
    drawings: Array<{ photo: number; marks: Array<{ kind: string; color: string }>; grids: unknown[] }>;
  };
  expect(sent.level).toBe("excellent");
  expect(sent.drawings).toHaveLength(1);
  expect(sent.drawings[0]!.marks.map((m) => [m.kind, m.color])).toEqual([["pen", "#b22c1a"]]);
  expect(sent.drawings[0]!.grids).toHaveLength(1);

  await expect(page).toHaveURL("/teach/homework");
  await expect(page.getByRole("status").filter({ hasText: "已保存批改" })).toBeVisible();
  await page.getByRole("link", { name: "今天已批" }).click();
  await expect(page.locator(`.queue-item[data-attempt="${attemptId}"]`)).toContainText("已批改");
  expect(consoleErrors).toEqual([]);
});

test("a learner opening the teaching area gets the 404 page", async ({ page }) => {
  await signIn(page, "learner");
  for (const path of ["/teach/homework", "/teach"]) {
    const res = await page.goto(path);
    expect(res?.status()).toBe(404);
    await expect(page.getByText("This page could not be found")).toBeVisible();
  }
});
