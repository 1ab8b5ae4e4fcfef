/**
 * Leaving the login dialog with a full page load (so the server renders the signed-in header),
 * and logging out the same way.
 */
import { safeRedirectPath } from "../../../shared/contracts/auth";
import { browserApi } from "../../lib/api";

/** The query parameters that only serve the dialog; the page after login drops them. */
const DIALOG_PARAMS = ["login", "redirect", "panel"];

/** Where a finished login goes: `redirect` when it is a same-origin path, else this page. */
export function afterLoginPath(loc: { pathname: string; search: string; hash: string }): string {
  const params = new URLSearchParams(loc.search);
  const redirect = params.get("redirect");
  for (const name of DIALOG_PARAMS) params.delete(name);
  const query = params.toString();
  const here = `${loc.pathname}${query ? `?${query}` : ""}${loc.hash}`;
  return safeRedirectPath(redirect, here);
}

/** Signed in, with the page not yet reloaded (完善资料 is still open): the header stops offering 登录. */
export const SIGNED_IN_EVENT = "mochi:signed-in";

export function announceSignedIn(): void {
  window.dispatchEvent(new Event(SIGNED_IN_EVENT));
}

export function finishLogin(): void {
  const target = afterLoginPath(window.location);
  const { pathname, search } = window.location;
  // Only a different path or query loads a page; a hash alone would just scroll.
  if (target.split("#")[0] === pathname + search) window.location.reload();
  else window.location.assign(target);
}

/** Ends the session, then a full load of the home page (the header re-renders signed out). */
export async function logOut(): Promise<void> {
  await browserApi("/api/auth/logout", {
    method: "POST",
    body: {},
    schema: import("../../../shared/contracts/auth").then((m) => m.statusOkSchema),
  });
  window.location.assign("/");
}
