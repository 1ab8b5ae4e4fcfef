/**
 * What a request carries in `res.locals` from one middleware to the next, between the web server
 * and the API, declared once (Express's `Locals`). Each key is set in one place.
 */
import type { Viewer } from "../shared/contracts/viewer";
import type { Auth } from "./request-auth";

declare global {
  namespace Express {
    interface Locals {
      /** This request's id (X-Request-Id): trusted from our proxies or made new (server/app.ts, step 1). */
      requestId?: string;
      /** This response's CSP nonce, for the page's inline scripts (server/security.ts). */
      cspNonce?: string;
      /** The route pattern the request matched, for metrics labels (api/metrics.ts; pages: server/render.tsx). */
      routePattern?: string;
      /** Who is signed in, for the page being rendered (server/app.ts, the viewer resolver). */
      viewer?: Viewer | null;
      /** The session cookie could not be read (database or API down): the page answers 503, not "signed out". */
      viewerUnavailable?: boolean;
      /** What the page read of its visitor's session, handed to its loaders' in-process API calls. */
      pageSession?: { auth: Auth | null };
      /** The page failed while streaming: the page cache does not keep it (server/render.tsx). */
      renderFailed?: boolean;
      /** The API's session for this call (null: nobody signed in), read once (api/modules/auth/guard.ts). */
      auth?: Auth | null;
      /** The hash of this browser's device key, once read or made in this request (api/modules/auth/devices.ts). */
      deviceKeyHash?: string;
    }
  }
}
