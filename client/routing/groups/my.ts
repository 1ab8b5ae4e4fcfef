/** The learner's /my pages: a route group, loaded by the browser with its first page (decision 048); its pages' imports are ../group-pages/my.ts (decision 054). */
import { myRoute } from "../../../shared/route-groups/my";
import type { RouteGroupModule } from "../routes";

export const defs: RouteGroupModule["defs"] = [myRoute];
export const loadPages: RouteGroupModule["loadPages"] = () => import("../group-pages/my");
