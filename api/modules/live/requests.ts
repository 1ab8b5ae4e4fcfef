/** What the live endpoints share: the session a path names, who may enter it, and why a state refuses an action. */
import type { Request } from "express";
import { z } from "zod";
import { type LiveStateKey, liveStates } from "../../../shared/contracts/catalogue";
import { hasLiveAccess } from "../../../shared/contracts/live";
import type { ApiContext } from "../../context";
import type { LiveState, User } from "../../db/schema";
import { ApiError, forbidden, notFound } from "../../http";
import { type SessionRow, accessFor, findSession } from "./sessions";

export const ID_PATTERN = /^[1-9]\d{0,9}$/;
export const emptyBody = z.strictObject({});
export const liveParam = { id: { type: "integer", description: "直播场次编号" } } as const;

export const stateConflict = (state: LiveState, message: string) =>
  new ApiError(409, "live_state", message, { state, stateName: liveStates[state as LiveStateKey] });

export function whyNotLive(state: LiveState): string {
  if (state === "scheduled") return "直播还没有开始";
  if (state === "cancelled") return "本场直播已取消";
  return "直播已经结束";
}

export async function sessionOr404(ctx: ApiContext, req: Request): Promise<SessionRow> {
  const raw = String(req.params.id ?? "");
  const id = ID_PATTERN.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : null;
  const session = id === null ? undefined : await findSession(ctx, id);
  if (!session) throw notFound("这场直播不存在");
  return session;
}

/** The viewer may watch this session, or the reason as an error. */
export async function requireAccess(ctx: ApiContext, session: SessionRow, user: User) {
  const access = await accessFor(ctx, session, user);
  if (!hasLiveAccess(access)) {
    throw forbidden(
      session.course_title ? `报名《${session.course_title}》后才能进入这场直播` : "报名课程后才能进入这场直播",
    );
  }
  return access;
}
