/** The test fixtures, /__test (TEST_FIXTURES=1 only): a route group, loaded by the browser with its first page (decision 048). */
import { fixtureRoute } from "../../../shared/route-groups/fixtures";
import type { PageModule, RouteGroupModule } from "../routes";

export const defs: RouteGroupModule["defs"] = [fixtureRoute];
export const pages: Record<string, () => Promise<PageModule>> = import.meta.glob<PageModule>(
  "../../features/fixture/**/*.page.tsx",
);
