/**
 * A part of a page that the server renders in place and the browser hydrates on its own, once its
 * code has arrived (decision 059). The visitor sees the same HTML at once; the rest of the page
 * hydrates without waiting for the part's code, which is not among the scripts the page preloads.
 *
 * The code starts loading when the page's module is evaluated (on the server, where the renderer
 * waits for it before its first render: `laterPartsLoading`; in the browser, next to hydration),
 * so a part is seldom still loading when it renders. When it is, during hydration React keeps the
 * server's HTML of the part's boundary and hydrates it when the code resolves (until then a click
 * on it does only what the browser does without script: a link is followed as a plain link, a
 * button does nothing); on a client navigation the part appears when its code arrives. A failed
 * chunk load follows the usual reload rule. Parts are for what the visitor does not use first:
 * below or beside the page's main control, or shown later (a lesson's end screen).
 */
import { type ComponentType, lazy, Suspense } from "react";
import { withChunkReload } from "../routing/chunk-reload";

const loading = new Set<Promise<unknown>>();

/**
 * The later parts still loading, or null when none is: the server renderer awaits it before it
 * renders, so a page never streams a part's empty fallback because its module was new.
 */
export function laterPartsLoading(): Promise<unknown> | null {
  return loading.size === 0 ? null : Promise.allSettled([...loading]);
}

/** A thenable already fulfilled: React's `lazy` reads it without suspending. */
function fulfilled<T>(value: T): PromiseLike<T> {
  return {
    then<R1 = T, R2 = never>(onFulfilled?: ((v: T) => R1 | PromiseLike<R1>) | null): PromiseLike<R1 | R2> {
      return fulfilled(onFulfilled ? (onFulfilled(value) as R1) : (value as unknown as R1));
    },
  };
}

export function hydrateLater<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  const started = withChunkReload(load)().then((component) => {
    loaded = component;
    return component;
  });
  loading.add(started);
  void started.then(
    () => loading.delete(started),
    () => loading.delete(started),
  );
  const Lazy = lazy<ComponentType<P>>(() =>
    loaded
      ? (fulfilled({ default: loaded }) as Promise<{ default: ComponentType<P> }>)
      : started.then((component) => ({ default: component })),
  );
  function Later(props: P) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return Later;
}
