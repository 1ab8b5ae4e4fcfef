/**
 * The hand-in dialog (photo uploads, checks, the model characters), loaded the first time it opens
 * (decision 030): the lesson page and 我的作业 show it only on 交作业 / 重新提交.
 */
import { lazyDialog } from "../../lib/lazy-dialog";

export const { Dialog: LazySubmitDialog, preload: preloadSubmitDialog } = lazyDialog(() =>
  import("./SubmitDialog").then((m) => m.SubmitDialog),
);
