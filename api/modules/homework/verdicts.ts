/**
 * A teacher's verdict on an attempt they hold: reviewed with a level and comment, or returned
 * with a reason. Either requires a live claim and changes the attempt, the submission, the coins
 * (an excellent rating pays once per submission), the learner's notice and the audit log in one
 * transaction.
 */
import type { z } from "zod";
import {
  HOMEWORK_MAX_ATTEMPTS,
  LEVEL_LABELS,
  type Drawing,
  type HomeworkSubmission,
} from "../../../shared/contracts/homework";
import type { returnInputSchema, reviewInputSchema } from "../../../shared/contracts/homework";
import type { ApiContext } from "../../context";
import type { User } from "../../db/schema";
import { ApiError } from "../../http";
import { notify } from "../../notices";
import { recordAudit } from "../audit/record";
import { awardLearningCoins } from "../wallet/hooks";
import { alreadyDone, attemptInScope, heldByOther } from "./review";
import { requireStaff } from "./staff";
import { submissionView, type Db } from "./views";

/** Drawings may only point at photos the attempt has. */
async function checkDrawings(db: Db, attemptId: number, drawings: Drawing[]) {
  if (!drawings.length) return;
  const photos = await db
    .selectFrom("homework_photos")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("attempt_id", "=", attemptId)
    .executeTakeFirstOrThrow();
  if (drawings.some((d) => d.photo >= Number(photos.n)))
    throw new ApiError(400, "invalid_input", "批注指向了不存在的照片");
  if (new Set(drawings.map((d) => d.photo)).size !== drawings.length)
    throw new ApiError(400, "invalid_input", "每张照片只能有一份批注");
}

type Outcome =
  | { kind: "review"; input: z.output<typeof reviewInputSchema> }
  | { kind: "return"; input: z.output<typeof returnInputSchema> };

async function finish(ctx: ApiContext, user: User, publicId: string, outcome: Outcome): Promise<HomeworkSubmission> {
  const db = ctx.database.db;
  const scope = await requireStaff(db, user);
  const attempt = await attemptInScope(db, scope, publicId);
  await checkDrawings(db, attempt.id, outcome.input.drawings);
  const now = ctx.now();
  return db.transaction().execute(async (trx) => {
    const done = await trx
      .updateTable("homework_attempts")
      .set({
        state: outcome.kind === "review" ? "reviewed" : "returned",
        level: outcome.kind === "review" ? outcome.input.level : null,
        comment: outcome.kind === "review" ? outcome.input.comment : "",
        return_reason: outcome.kind === "return" ? outcome.input.reason : null,
        drawings: JSON.stringify(outcome.input.drawings),
        reviewed_by: user.id,
        reviewed_at: now,
        claimed_by: null,
        claim_until: null,
      })
      .where("id", "=", attempt.id)
      .where("state", "=", "waiting")
      .where("claimed_by", "=", user.id)
      .where("claim_until", ">", now)
      .returning(["submission_id", "number"])
      .executeTakeFirst();
    if (!done) {
      const current = await trx
        .selectFrom("homework_attempts")
        .select(["state", "claimed_by", "claim_until"])
        .where("id", "=", attempt.id)
        .executeTakeFirstOrThrow();
      if (current.state !== "waiting") throw alreadyDone();
      if (current.claimed_by !== null && current.claimed_by !== user.id && current.claim_until! > now)
        throw heldByOther();
      throw new ApiError(409, "claim_required", "请先领取这份作业再批改（领取已过期时请重新领取）");
    }
    const excellent = outcome.kind === "review" && outcome.input.level === "excellent";
    await trx
      .updateTable("homework_submissions")
      .set({
        state: outcome.kind === "review" ? "reviewed" : "returned",
        level: outcome.kind === "review" ? outcome.input.level : null,
        updated_at: now,
        ...(excellent ? { excellent_at: now } : {}),
      })
      .where("id", "=", done.submission_id)
      .execute();
    if (excellent)
      await awardLearningCoins(trx, {
        userId: attempt.user_id,
        rule: "homework_excellent",
        refType: "homework_submission",
        refId: done.submission_id,
        now,
      });
    if (outcome.kind === "review") {
      await notify(
        trx,
        attempt.user_id,
        "homework_reviewed",
        `作业已批改：${attempt.task_title}`,
        `评级：${LEVEL_LABELS[outcome.input.level]}。${outcome.input.comment}`,
        now,
      );
    } else {
      const last = done.number >= HOMEWORK_MAX_ATTEMPTS;
      await notify(
        trx,
        attempt.user_id,
        "homework_returned",
        `作业被退回：${attempt.task_title}`,
        `退回原因：${outcome.input.reason}${last ? `。已提交 ${HOMEWORK_MAX_ATTEMPTS} 次，不能再重新提交。` : "。请修改后重新提交。"}`,
        now,
      );
    }
    const drawings = outcome.input.drawings.length;
    await recordAudit(trx, {
      actorId: user.id,
      targetType: "homework_attempt",
      targetId: publicId,
      before: { state: "waiting" },
      ...(outcome.kind === "review"
        ? {
            action: "homework.review",
            after: {
              state: "reviewed",
              number: done.number,
              level: outcome.input.level,
              comment: outcome.input.comment,
              drawings,
            },
          }
        : {
            action: "homework.return",
            after: { state: "returned", number: done.number, drawings },
            reason: outcome.input.reason,
          }),
    });
    return submissionView(trx, done.submission_id);
  });
}

export const reviewAttempt = (
  ctx: ApiContext,
  user: User,
  publicId: string,
  input: z.output<typeof reviewInputSchema>,
) => finish(ctx, user, publicId, { kind: "review", input });

export const returnAttempt = (
  ctx: ApiContext,
  user: User,
  publicId: string,
  input: z.output<typeof returnInputSchema>,
) => finish(ctx, user, publicId, { kind: "return", input });
