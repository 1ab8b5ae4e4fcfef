/**
 * One definition per API endpoint. A module lists its endpoints with `defineEndpoint`; the API
 * router mounts them with `endpointRouter` and the OpenAPI document (api/openapi.ts) is built
 * from the same list, so what is served, what is validated and what is described cannot drift.
 *
 * Mounting does the common work before the handler runs: a signed-in session when `auth` is
 * true (401 otherwise), the role (403), the JSON body parsed with `input` and the query with
 * `query` (400 `invalid_input` with the schema's message otherwise), for `stepUp` a password
 * or two-factor code proved within 10 minutes (403 `step_up_required`), and last the path
 * parameters with `params` (404 `not_found` with the parameter's message: a malformed id names
 * nothing). The handler receives the input, the query and the parameters, typed.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from "express";
import { z } from "zod";
import { INT4_MAX, isIdText } from "../shared/ids";
import { forbidden, notFound, parseInput } from "./http";
import { authOf, requireAuth, stepUpRequired, type Auth } from "./request-auth";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/** Staff roles an endpoint may demand; an operator has every teacher permission. */
export type StaffRole = "teacher" | "operator";

/** Whether an account of `role` holds `required` (learner < teacher < operator). */
export function holdsRole(role: "learner" | StaffRole, required: StaffRole): boolean {
  return required === "teacher" ? role === "teacher" || role === "operator" : role === "operator";
}

/**
 * A path parameter: a schema of the segment's text whose every message is the 404 answer when the
 * segment fails it, and whose `.describe()` is the document's description.
 */
export type PathParam = z.ZodType<unknown, string>;
type PathParams = Record<string, PathParam>;

const NOT_FOUND = "内容不存在";

/** A database id in the path (`isIdText`), as a number; anything else names nothing: 404 `missing`. */
export function idParam(description: string, missing = NOT_FOUND) {
  return z
    .string()
    .refine(isIdText, missing)
    .pipe(z.coerce.number<string>().int().min(1).max(INT4_MAX))
    .describe(description);
}

/** A text path parameter that passes `rule`; anything else names nothing: 404 `missing`. */
export function textParam(rule: RegExp | ((value: string) => boolean), description: string, missing = NOT_FOUND) {
  const text = z.string();
  return (rule instanceof RegExp ? text.regex(rule, missing) : text.refine(rule, missing)).describe(description);
}

/** A raw (non-JSON) request body: an upload, or a provider's form-encoded notification. */
export interface RawBody {
  binary: readonly string[];
  maxBytes: number;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

type ParsedParams<P> = { [K in keyof P]: P[K] extends z.ZodType ? z.output<P[K]> : never };

export interface EndpointCall<I, Q, A extends boolean, P = PathParams> {
  /** The body parsed with `input` (undefined when the endpoint takes none). */
  input: Parsed<I>;
  /** The query parsed with `query` (undefined when the endpoint takes none). */
  query: Parsed<Q>;
  /** The session: always present when `auth` is true, null for anonymous callers otherwise. */
  auth: A extends true ? Auth : Auth | null;
  /** The path parameters parsed with `params`. */
  params: ParsedParams<P>;
}

export interface EndpointDefinition<
  I extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  A extends boolean = boolean,
  P extends PathParams = PathParams,
> {
  method: HttpMethod;
  /** The whole path below /api, with OpenAPI path parameters: `/gifts/{code}/claim`. */
  path: string;
  summary: string;
  tag: string;
  /** True: a signed-in session is required (401 without). */
  auth: A;
  /**
   * Staff only: the session must also hold this role (403 otherwise). Needs `auth: true`.
   * Whose things a teacher may touch (their own courses, rooms) the handler decides (404).
   */
  role?: StaffRole;
  /**
   * Money moves and changes to accounts: the session must have proved its password or a
   * two-factor code within the last 10 minutes (POST /api/auth/step-up), 403 `step_up_required`
   * otherwise (the console asks for one and tries again). Needs `auth: true`.
   */
  stepUp?: boolean;
  /** The JSON body, validated before the handler runs. */
  input?: I;
  /** A raw body instead of JSON (documented; the endpoint's `before` reads it). */
  raw?: RawBody;
  /** The query string, validated before the handler runs. */
  query?: Q;
  /** The JSON answer on success (documentation; the contracts are shared with the client). */
  output?: z.ZodType;
  /** Media type of a non-JSON answer (`text/event-stream`, `text/html`, `application/xml`…). */
  produces?: string;
  /** The path parameters (`{id}` in `path`), validated last, just before the handler runs. */
  params?: P;
  /** Route-level middleware that runs before the session check (body parsers, caches). */
  before?: RequestHandler[];
  handler: (req: Request, res: Response, call: EndpointCall<I, Q, A, P>) => unknown;
}

/** An endpoint as lists hold it (the handler's types are checked where it is defined). */
export interface Endpoint {
  method: HttpMethod;
  path: string;
  summary: string;
  tag: string;
  auth: boolean;
  role?: StaffRole;
  stepUp?: boolean;
  input?: z.ZodType;
  raw?: RawBody;
  query?: z.ZodType;
  output?: z.ZodType;
  produces?: string;
  params?: PathParams;
  before?: RequestHandler[];
  run: (req: Request, res: Response) => unknown;
}

export function defineEndpoint<
  I extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  A extends boolean = boolean,
  P extends PathParams = PathParams,
>(definition: EndpointDefinition<I, Q, A, P>): Endpoint {
  const { handler, ...described } = definition;
  if (definition.role && !definition.auth) throw new Error(`${definition.path}: a role needs auth: true`);
  if (definition.stepUp && !definition.auth) throw new Error(`${definition.path}: stepUp needs auth: true`);
  const run = (req: Request, res: Response) => {
    const auth = definition.auth ? requireAuth(req, res) : authOf(res);
    if (definition.role && !holdsRole(auth!.user.role, definition.role)) throw forbidden();
    const input = (definition.input ? parseInput(definition.input, req.body) : undefined) as Parsed<I>;
    const query = (definition.query ? parseInput(definition.query, req.query) : undefined) as Parsed<Q>;
    // After the input: a form with mistakes is told so before anyone is asked for a password.
    if (definition.stepUp && !auth!.steppedUp) throw stepUpRequired();
    const params = parsePathParams(definition.params, req.params) as ParsedParams<P>;
    return handler(req, res, { input, query, auth: auth as EndpointCall<I, Q, A>["auth"], params });
  };
  return { ...described, run };
}

/** Each parameter in the order declared; the first that fails answers 404 with its message. */
function parsePathParams(params: PathParams | undefined, raw: Record<string, unknown>): Record<string, unknown> {
  const parsed: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(params ?? {})) {
    const result = schema.safeParse(raw[name]);
    if (!result.success) throw notFound(result.error.issues[0]?.message);
    parsed[name] = result.data;
  }
  return parsed;
}

/** `/gifts/{code}/claim` mounted at `/gifts` → `/:code/claim`. */
export function expressPath(path: string, mountPath: string): string {
  if (path !== mountPath && !path.startsWith(mountPath === "/" ? "/" : `${mountPath}/`))
    throw new Error(`${path} is not below ${mountPath}`);
  const rest = mountPath === "/" ? path : path.slice(mountPath.length) || "/";
  return rest.replace(/\{(\w+)\}/g, ":$1");
}

/** Marks a router built from endpoints, so tests can tell every mounted route is described. */
export const ENDPOINTS = Symbol("endpoints");

export interface EndpointRouter extends Router {
  [ENDPOINTS]: { mountPath: string; endpoints: readonly Endpoint[] };
}

/** An Express router serving `endpoints`, to be mounted at `mountPath` below /api. */
export function endpointRouter(mountPath: string, endpoints: readonly Endpoint[]): EndpointRouter {
  const router = express.Router() as EndpointRouter;
  for (const endpoint of endpoints) {
    const run: RequestHandler = (req, res, next: NextFunction) => {
      try {
        Promise.resolve(endpoint.run(req, res)).catch(next);
      } catch (error) {
        next(error);
      }
    };
    router[endpoint.method](expressPath(endpoint.path, mountPath), ...(endpoint.before ?? []), run);
  }
  router[ENDPOINTS] = { mountPath, endpoints };
  return router;
}
