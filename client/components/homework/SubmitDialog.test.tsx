// @vitest-environment happy-dom
import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HOMEWORK_UNSUPPORTED_TYPE, type HomeworkTask } from "../../../shared/contracts/homework";
import { SubmitDialog } from "./SubmitDialog";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const task: HomeworkTask = {
  id: 7,
  courseId: 1,
  courseTitle: "欧体楷书入门",
  lessonId: 3,
  lessonTitle: "横与竖",
  title: "临写“永和九年”",
  instructions: "每字两遍。",
  characters: "永和",
  script: "kai",
  maxPhotos: 9,
  maxAttempts: 3,
};

let container: HTMLDivElement;
let root: Root;

beforeEach(() => {
  // The dialog asks for the draft kept on the server when it opens: none here.
  vi.stubGlobal(
    "fetch",
    vi.fn(
      async () => new Response(JSON.stringify({ photos: [] }), { headers: { "Content-Type": "application/json" } }),
    ),
  );
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  vi.unstubAllGlobals();
  container.remove();
  document.body.innerHTML = "";
});

function render(onClose = vi.fn()) {
  act(() => root.render(<SubmitDialog open onClose={onClose} task={task} attemptNumber={1} onSubmitted={vi.fn()} />));
  const dialog = document.querySelector<HTMLElement>('[role="dialog"]');
  if (!dialog) throw new Error("no dialog");
  return dialog;
}

describe("SubmitDialog", () => {
  it("is a labelled dialog with the model characters and nothing to hand in yet", () => {
    const dialog = render();
    const title = document.getElementById(dialog.getAttribute("aria-labelledby") ?? "");
    expect(title?.textContent).toBe("交作业");
    expect(dialog.querySelectorAll('[role="img"][aria-label^="范字"]')).toHaveLength(2);
    const submit = Array.from(dialog.querySelectorAll("button")).find((b) => b.textContent === "提交作业");
    expect(submit?.disabled).toBe(true);
  });

  it("offers 从相册选 for several photos at once, HEIC included", () => {
    const dialog = render();
    const album = dialog.querySelector<HTMLInputElement>('input[type="file"][data-picker="album"]');
    expect(album?.multiple).toBe(true);
    expect(album?.accept).toContain(".heic");
    expect(dialog.querySelector(`label[for="${album?.id}"]`)?.textContent).toBe("从相册选");
  });

  it("refuses a file that is no photo at once with the Chinese message", () => {
    const dialog = render();
    const input = dialog.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error("no file input");
    const gif = new File(["x"], "animation.gif", { type: "image/gif" });
    Object.defineProperty(input, "files", { value: [gif], configurable: true });
    act(() => input.dispatchEvent(new Event("change", { bubbles: true })));
    expect(dialog.querySelector('[role="alert"]')?.textContent).toBe(HOMEWORK_UNSUPPORTED_TYPE);
    expect(dialog.querySelectorAll(".hw-upload")).toHaveLength(0);
  });

  it("counts the note's characters and closes on Esc", () => {
    const onClose = vi.fn();
    const dialog = render(onClose);
    const note = dialog.querySelector("textarea");
    if (!note) throw new Error("no note");
    expect(note.maxLength).toBe(500);
    act(() => {
      const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")?.set;
      setter?.call(note, "请老师看看");
      note.dispatchEvent(new Event("input", { bubbles: true }));
    });
    expect(dialog.textContent).toContain("5 / 500");
    act(() => document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true })));
    expect(onClose).toHaveBeenCalled();
  });
});
