/**
 * The whole route table as router routes, for the server (and tests): every page of every
 * route group at once. The browser never imports this module (decision 048).
 */
import type { RouteObject } from "react-router-dom";
import { routeTable } from "../../shared/routes";
import type { RouteDef } from "../../shared/route-def";
import { buildRoutes, byPage, type EnvOf, type PageModule } from "./routes";

const allPages = byPage(import.meta.glob<PageModule>("../features/**/*.page.tsx"));

export function buildAllRoutes(envOf: EnvOf, defs: RouteDef[] = routeTable): RouteObject[] {
  return buildRoutes(envOf, defs, allPages);
}
