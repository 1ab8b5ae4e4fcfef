/** What the live endpoints share: the session a path names, who may enter it, and why a state refuses an action. */
import { z } from "zod";
import { type LiveStateKey, liveStates } from "../../../shared/contracts/catalogue";
import { hasLiveAccess } from "../../../shared/contracts/live";
import type { ApiContext } from "../../context";
import { idParam } from "../../endpoint";
import type { LiveState, User } from "../../db/schema";
import { ApiError, forbidden, notFound } from "../../http";
import { type SessionRow, accessFor, findSession } from "./sessions";

const LIVE_NOT_FOUND = "这场直播不存在";
export const ID_PATTERN = /^[1-9]\d{0,9}$/;
export const emptyBody = z.strictObject({});
export const liveParam = { id: idParam("直播场次编号", LIVE_NOT_FOUND) };

export const stateConflict = (state: LiveState, message: string) =>
  new ApiError(409, "live_state", message, { state, stateName: liveStates[state as LiveStateKey] });

export function whyNotLive(state: LiveState): string {
  if (state === "scheduled") return "直播还没有开始";
  if (state === "cancelled") return "本场直播已取消";
  return "直播已经结束";
}

export async function sessionOr404(ctx: ApiContext, id: number): Promise<SessionRow> {
  const session = await findSession(ctx, id);
  if (!session) throw notFound(LIVE_NOT_FOUND);
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
