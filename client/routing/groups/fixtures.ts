/** The test fixtures, /__test (TEST_FIXTURES=1 only): a route group, loaded by the browser with its first page (decision 048); its pages' imports are ../group-pages/fixtures.ts (decision 054). */
import { fixtureRoute } from "../../../shared/route-groups/fixtures";
import type { RouteGroupModule } from "../routes";

export const defs: RouteGroupModule["defs"] = [fixtureRoute];
export const loadPages: RouteGroupModule["loadPages"] = () => import("../group-pages/fixtures");
