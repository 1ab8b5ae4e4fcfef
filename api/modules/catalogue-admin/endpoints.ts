/** The operator's catalogue (/api/admin/…): courses, chapters, lessons, tasks, books and stationery. */
import type { ApiContext } from "../../context";
import type { Endpoint } from "../../endpoint";
import { adminCourseEndpoints } from "./course.endpoints";
import { adminBookEndpoints, adminCommodityEndpoints } from "./goods.endpoints";
import { adminLessonEndpoints } from "./lesson.endpoints";

export function adminCatalogueEndpoints(ctx: ApiContext): Endpoint[] {
  return [
    ...adminCourseEndpoints(ctx),
    ...adminLessonEndpoints(ctx),
    ...adminBookEndpoints(ctx),
    ...adminCommodityEndpoints(ctx),
  ];
}
