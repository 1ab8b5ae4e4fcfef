/** The operators' console, /admin: a route group, loaded by the browser with its first page (decision 048); its pages' imports are ../group-pages/admin.ts (decision 054). */
import { adminRoute } from "../../../shared/route-groups/admin";
import type { RouteGroupModule } from "../routes";

export const defs: RouteGroupModule["defs"] = [adminRoute];
export const loadPages: RouteGroupModule["loadPages"] = () => import("../group-pages/admin");
