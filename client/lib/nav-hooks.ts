/**
 * One registry for navigation hooks (page-view events, analytics). The router calls every
 * registered hook after each navigation settles, and with the error when one failed.
 */
export interface NavigationEvent {
  to: string;
  from: string | null;
  error?: unknown;
}
export type NavigationHook = (event: NavigationEvent) => void;

const hooks = new Set<NavigationHook>();

export function registerNavigationHook(hook: NavigationHook): () => void {
  hooks.add(hook);
  return () => hooks.delete(hook);
}

export function emitRouteChanged(event: NavigationEvent) {
  for (const hook of hooks) {
    try {
      hook(event);
    } catch (err) {
      console.warn("navigation hook failed", err);
    }
  }
}

/** Built-in hook: a `routechanged` DOM event per navigation, for analytics scripts to listen to. */
export function routeChangedEventHook(event: NavigationEvent) {
  window.dispatchEvent(
    new CustomEvent("routechanged", { detail: { to: event.to, from: event.from, failed: event.error !== undefined } }),
  );
}
