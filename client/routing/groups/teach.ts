/** The teachers' area, /teach: a route group, loaded by the browser with its first page (decision 048); its pages' imports are ../group-pages/teach.ts (decision 054). */
import { teachRoute } from "../../../shared/route-groups/teach";
import type { RouteGroupModule } from "../routes";

export const defs: RouteGroupModule["defs"] = [teachRoute];
export const loadPages: RouteGroupModule["loadPages"] = () => import("../group-pages/teach");
