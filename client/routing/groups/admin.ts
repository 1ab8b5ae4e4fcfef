/** The operators' console, /admin: a route group, loaded by the browser with its first page (decision 048). */
import { adminRoute } from "../../../shared/route-groups/admin";
import type { PageModule, RouteGroupModule } from "../routes";

export const defs: RouteGroupModule["defs"] = [adminRoute];
export const pages: Record<string, () => Promise<PageModule>> = import.meta.glob<PageModule>(
  "../../features/admin/**/*.page.tsx",
);
