/**
 * Group buying as pages show it: a course's open groups, and one group with its real members,
 * seats being paid for, time left and what the viewer can do. A group is public once its leader
 * has paid; before that only the leader sees it.
 */
import { categoryTones } from "../../../shared/contracts/catalogue";
import { GROUP_STATE_LABELS, type GroupDetail, type OpenGroupList } from "../../../shared/contracts/groups";
import { coverUrl } from "../../../shared/media";
import type { ApiContext } from "../../context";
import { outlineLessons } from "../courses/catalogue";
import { ownsCourse } from "../enrolments/enrolments";
import { courseSummariesByIds } from "../courses/summaries";
import { maskNickname } from "../../../shared/format";
import { groupNotFound, isPublic, joinRefusal, seatInCampaign } from "./groups";

const OPEN_GROUPS_LIMIT = 20;

/** The course's groups one can still join: open, in time, a seat free; the closest deadline first. */
export async function listOpenGroups(
  ctx: ApiContext,
  courseId: number,
  viewerId: number | null,
): Promise<OpenGroupList> {
  const now = ctx.now();
  const { db } = ctx.database;
  const rows = await db
    .selectFrom("groups")
    .innerJoin("group_campaigns as c", "c.id", "groups.campaign_id")
    .innerJoin("users", "users.id", "groups.leader_id")
    .select([
      "groups.id",
      "groups.group_no",
      "groups.group_size",
      "groups.seats_taken",
      "groups.expires_at",
      "users.nickname",
      "users.avatar_url",
    ])
    .where("c.course_id", "=", courseId)
    .where("groups.state", "=", "open")
    .where("groups.expires_at", ">", now)
    .where((eb) => eb("groups.seats_taken", "<", eb.ref("groups.group_size")))
    .orderBy("groups.expires_at")
    .orderBy("groups.id")
    .limit(OPEN_GROUPS_LIMIT)
    .execute();
  const mine =
    viewerId !== null && rows.length
      ? await db
          .selectFrom("group_members")
          .select("group_id")
          .where("user_id", "=", viewerId)
          .where("state", "in", ["held", "paid"])
          .where(
            "group_id",
            "in",
            rows.map((r) => r.id),
          )
          .execute()
      : [];
  const mineIds = new Set(mine.map((m) => m.group_id));
  return {
    items: rows.map((r) => ({
      groupNo: r.group_no,
      leader: { nickname: maskNickname(r.nickname), avatarUrl: r.avatar_url },
      groupSize: r.group_size,
      seatsLeft: r.group_size - r.seats_taken,
      expiresAt: (r.expires_at ?? now).toISOString(),
      mine: mineIds.has(r.id),
    })),
    serverNow: now.toISOString(),
  };
}

/** Whether the group can be shown to this viewer (it exists, and is public or theirs). */
export async function visibleGroupId(ctx: ApiContext, groupNo: string, viewerId: number | null): Promise<number> {
  const group = await ctx.database.db
    .selectFrom("groups")
    .select(["id", "state", "leader_id"])
    .where("group_no", "=", groupNo)
    .executeTakeFirst();
  if (!group || (!isPublic(group.state) && group.leader_id !== viewerId)) throw groupNotFound();
  return group.id;
}

/** One group as its page shows it: the course, paid members, seats being paid for, time left and what the viewer can do. */
export async function groupDetail(ctx: ApiContext, groupNo: string, viewerId: number | null): Promise<GroupDetail> {
  const now = ctx.now();
  const { db } = ctx.database;
  const groupId = await visibleGroupId(ctx, groupNo, viewerId);
  const group = await db
    .selectFrom("groups")
    .innerJoin("group_campaigns as c", "c.id", "groups.campaign_id")
    .selectAll("groups")
    .select(["c.course_id", "c.group_price_cents", "c.valid_hours"])
    .where("groups.id", "=", groupId)
    .executeTakeFirstOrThrow();
  const [summaries, lessons, seats] = await Promise.all([
    courseSummariesByIds(db, [group.course_id]),
    outlineLessons(db, group.course_id),
    db
      .selectFrom("group_members as m")
      .innerJoin("users", "users.id", "m.user_id")
      .innerJoin("orders", "orders.id", "m.order_id")
      .select([
        "m.user_id",
        "m.state",
        "m.joined_at",
        "users.nickname",
        "users.avatar_url",
        "orders.order_no",
        "orders.state as order_state",
        "orders.expires_at as order_expires_at",
      ])
      .where("m.group_id", "=", group.id)
      .orderBy("m.joined_at")
      .execute(),
  ]);
  const course = summaries.get(group.course_id);
  if (!course) throw groupNotFound();
  const members = seats
    .filter((s) => s.state === "paid" || s.state === "refunded")
    .sort((a, b) => Number(b.user_id === group.leader_id) - Number(a.user_id === group.leader_id))
    .map((s) => ({
      nickname: maskNickname(s.nickname),
      avatarUrl: s.avatar_url,
      leader: s.user_id === group.leader_id,
      joinedAt: s.joined_at.toISOString(),
      refunded: s.state === "refunded",
    }));
  const joinable =
    group.state === "open" &&
    group.expires_at !== null &&
    group.expires_at > now &&
    group.seats_taken < group.group_size;

  let viewer: GroupDetail["viewer"] = null;
  if (viewerId !== null) {
    const own = seats.find((s) => s.user_id === viewerId);
    const payable = own?.state === "held" && own.order_state === "pending" && own.order_expires_at > now;
    // A held seat whose time ran out counts as free: joining again closes it and takes a new one.
    const memberState = own?.state === "held" && !payable ? "released" : (own?.state ?? null);
    const [owns, other] = await Promise.all([
      ownsCourse(db, viewerId, group.course_id),
      seatInCampaign(db, viewerId, group.campaign_id, group.id),
    ]);
    const refusal = payable
      ? null
      : joinRefusal(
          {
            state: group.state,
            expiresAt: group.expires_at,
            seatsTaken: group.seats_taken,
            groupSize: group.group_size,
            isLeader: group.leader_id === viewerId,
            memberState,
            ownsCourse: owns,
            otherGroupNo: other?.group_no ?? null,
          },
          now,
        );
    viewer = {
      isLeader: group.leader_id === viewerId,
      memberState: own?.state ?? null,
      orderNo: own?.order_no ?? null,
      payable,
      canJoin: !payable && refusal === null,
      reason: refusal?.message ?? null,
    };
  }

  return {
    groupNo: group.group_no,
    state: group.state,
    stateLabel: GROUP_STATE_LABELS[group.state],
    groupSize: group.group_size,
    validHours: group.valid_hours,
    course: {
      id: course.id,
      title: course.title,
      subtitle: course.subtitle,
      coverUrl: coverUrl(course.coverChar, categoryTones[course.category], "landscape"),
      priceCents: course.priceCents,
      groupPriceCents: group.group_price_cents,
      lessonsCount: course.lessonsCount,
      firstLessonId: lessons[0]?.id ?? null,
    },
    members,
    paying: seats.filter((s) => s.state === "held").length,
    seatsLeft: Math.max(0, group.group_size - group.seats_taken),
    joinable,
    expiresAt: group.expires_at?.toISOString() ?? null,
    completedAt: group.completed_at?.toISOString() ?? null,
    failedAt: group.failed_at?.toISOString() ?? null,
    serverNow: now.toISOString(),
    viewer,
  };
}
