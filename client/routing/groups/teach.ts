/** The teachers' area, /teach: a route group, loaded by the browser with its first page (decision 048). */
import { teachRoute } from "../../../shared/route-groups/teach";
import type { PageModule, RouteGroupModule } from "../routes";

export const defs: RouteGroupModule["defs"] = [teachRoute];
export const pages: Record<string, () => Promise<PageModule>> = import.meta.glob<PageModule>(
  "../../features/teach/**/*.page.tsx",
);
