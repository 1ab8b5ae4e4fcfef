/**
 * `describeProblem` for code that needs it only after a click failed (buying, enrolling): the
 * descriptions load with the first failure instead of with the page. When that load fails too, the
 * browser is offline (or, after a deploy, the page reloads by the chunk rule), and the learner is
 * told the network failed.
 */
import { withChunkReload } from "../routing/chunk-reload";
import type { Problem } from "./problem";

/** What describeProblem says of a call that got no answer (client/lib/problem-later.test.ts keeps them equal). */
export const NETWORK_FAILED_MESSAGE = "网络连接失败，请检查网络后重试";

const problems = withChunkReload(() => import("./problem"));

export async function describeProblemLater(err: unknown): Promise<Problem> {
  try {
    const { describeProblem } = await problems();
    return describeProblem(err);
  } catch {
    return { message: NETWORK_FAILED_MESSAGE, fields: {}, retryAfter: null, code: null, statusCode: null };
  }
}
