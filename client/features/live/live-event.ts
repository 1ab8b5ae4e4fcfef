/**
 * A live session as the schedule and the room describe it: its state's name and its schema.org
 * Event data.
 */
import { type LiveSummary, liveStates } from "../../../shared/contracts/catalogue";
import type { LiveSite } from "../../../shared/contracts/live";
import { coverUrl } from "../../../shared/media";

/** schema.org Event of one session: an online event in its room, performed by its teacher. */
export function liveEventJsonLd(live: LiveSummary, site: LiveSite, description?: string): Record<string, unknown> {
  const roomUrl = `${site.origin}/live/${live.id}`;
  return {
    "@type": "Event",
    name: live.title,
    description:
      description ?? `${live.teacherName}老师的直播课${live.courseTitle ? `，属于《${live.courseTitle}》` : ""}。`,
    startDate: live.startsAt,
    endDate: live.endsAt,
    eventStatus: live.state === "cancelled" ? "https://schema.org/EventCancelled" : "https://schema.org/EventScheduled",
    eventAttendanceMode: "https://schema.org/OnlineEventAttendanceMode",
    location: { "@type": "VirtualLocation", url: roomUrl },
    image: [`${site.origin}${coverUrl(live.coverChar, "red", "landscape")}`],
    organizer: { "@type": "Organization", name: site.name, url: site.origin },
    performer: { "@type": "Person", name: live.teacherName },
    isAccessibleForFree: live.isOpen,
    inLanguage: "zh-CN",
    url: roomUrl,
  };
}

export function stateName(state: LiveSummary["state"]): string {
  return liveStates[state];
}
