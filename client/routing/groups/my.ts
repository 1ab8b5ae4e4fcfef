/** The learner's /my pages: a route group, loaded by the browser with its first page (decision 048). */
import { myRoute } from "../../../shared/route-groups/my";
import type { PageModule, RouteGroupModule } from "../routes";

export const defs: RouteGroupModule["defs"] = [myRoute];
export const pages: Record<string, () => Promise<PageModule>> = import.meta.glob<PageModule>(
  "../../features/my/**/*.page.tsx",
);
