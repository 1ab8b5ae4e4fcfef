/**
 * The page pipeline of DESIGN §3, the same on the server and in the browser:
 * global middleware → route middleware (outermost first; none named means `auth`) → validate
 * → page loaders in parallel. Built on the router's dataStrategy so no loader starts before
 * the guards have passed.
 */
import { type DataStrategyFunction, type DataStrategyResult, data, isRouteErrorResponse } from "react-router-dom";
import { AppError, NOT_FOUND_MESSAGE, normalizeError, unknownMiddlewareMessage } from "../../shared/errors";
import { defOf, middlewareOf, paramRules } from "../../shared/routes";
import type { RouteDef } from "../../shared/route-def";
import { globalMiddleware, middlewareRegistry } from "./middleware";
import type { MiddlewareContext, NavEnv, RouteMiddleware } from "./nav-context";

/** Any thrown value becomes what the router renders: Responses (redirects) pass through. */
export function toRouteError(err: unknown): unknown {
  if (err instanceof Response || isRouteErrorResponse(err)) return err;
  const { statusCode, message } = normalizeError(err);
  return data({ statusCode, message }, { status: statusCode });
}

export async function runPipeline(ctx: MiddlewareContext): Promise<void> {
  for (const mw of globalMiddleware) await mw(ctx);
  for (const def of ctx.chain) {
    const steps: RouteMiddleware[] = [];
    for (const name of middlewareOf(def)) {
      const mw = middlewareRegistry[name];
      // Nothing runs when a name is unknown (as the original did).
      if (!mw) throw new AppError(500, unknownMiddlewareMessage(name));
      steps.push(mw);
    }
    for (const mw of steps) await mw(ctx);
  }
  for (const def of ctx.chain) {
    for (const [name, rule] of Object.entries(def.params ?? {})) {
      if (!paramRules[rule].safeParse(ctx.params[name] ?? "").success) throw new AppError(404, NOT_FOUND_MESSAGE);
    }
  }
}

export function createDataStrategy(envOf: (context: unknown) => NavEnv): DataStrategyFunction {
  return async ({ request, matches, params, context }) => {
    const env = envOf(context);
    const chain = matches.map((m) => defOf(m.route)).filter((d): d is RouteDef => Boolean(d));
    const pipeline = runPipeline({ env, request, url: new URL(request.url), params, chain });
    pipeline.catch(() => {}); // observed below, through the deepest loading route

    const toLoad = matches.filter((m) => m.shouldCallHandler());
    const deepest = toLoad[toLoad.length - 1];
    const results: Record<string, DataStrategyResult> = {};
    await Promise.all(
      toLoad.map(async (match) => {
        results[match.route.id] = await match.resolve(async (handler) => {
          try {
            await pipeline;
          } catch (err) {
            // The guard's outcome belongs to the page being opened: its error or redirect.
            if (match === deepest) throw toRouteError(err);
            return null;
          }
          try {
            const value = await handler();
            const def = defOf(match.route);
            if (def && value !== null) env.onLoaderResolved?.(def);
            return value;
          } catch (err) {
            throw toRouteError(err);
          }
        });
      }),
    );
    return results;
  };
}
