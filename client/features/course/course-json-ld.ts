/**
 * schema.org Course data of one course page.
 */
import { courseCategoryName } from "../../../shared/catalogue";
import { courseLevels } from "../../../shared/contracts/catalogue";
import { type CourseDetail } from "../../../shared/contracts/courses";
import { SITE_NAME_DEFAULT } from "../../../shared/constants";
import { formatYuan } from "../../../shared/money";

function isoDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `PT${h ? `${h}H` : ""}${m || !h ? `${m}M` : ""}`;
}

export function courseJsonLd(course: CourseDetail, image: string): Record<string, unknown> {
  const url = `/course/${course.id}`;
  const workload = course.chapters.flatMap((c) => c.lessons).reduce((sum, l) => sum + l.durationSeconds, 0);
  const instructor = { "@type": "Person", name: course.teacher.name, description: course.teacher.title };
  const sessions = course.liveSessions.filter((s) => s.state !== "cancelled");
  return {
    "@type": "Course",
    "@id": url,
    name: course.title,
    description: course.subtitle || course.summary,
    url,
    image,
    inLanguage: "zh-CN",
    educationalLevel: courseLevels[course.level],
    about: courseCategoryName(course.category),
    provider: { "@type": "Organization", name: SITE_NAME_DEFAULT, url: "/" },
    isAccessibleForFree: course.priceCents === 0,
    offers: {
      "@type": "Offer",
      category: course.priceCents === 0 ? "Free" : "Paid",
      price: formatYuan(course.priceCents),
      priceCurrency: "CNY",
      availability: "https://schema.org/InStock",
      url,
    },
    hasCourseInstance:
      course.kind === "live" && sessions.length
        ? sessions.map((s) => ({
            "@type": "CourseInstance",
            name: s.title,
            courseMode: "Online",
            startDate: s.startsAt,
            endDate: s.endsAt,
            instructor,
            location: { "@type": "VirtualLocation", url: `/live/${s.id}` },
          }))
        : {
            "@type": "CourseInstance",
            courseMode: "Online",
            courseWorkload: isoDuration(workload),
            ...(course.campStartsOn ? { startDate: course.campStartsOn } : {}),
            instructor,
          },
  };
}
