/**
 * A dialog whose code loads the first time it opens: its forms and checks stay out of the page's
 * initial JavaScript (decision 030). Closed, a dialog renders nothing (on the server too, see
 * Modal), so the page's HTML is the same either way; once opened it stays mounted, so closing
 * plays the dialog's own fade-out. A failed chunk load follows the usual reload rule.
 */
import { type ComponentType, lazy, Suspense, useState } from "react";
import { withChunkReload } from "../routing/chunk-reload";

export function lazyDialog<P extends { open: boolean }>(
  load: () => Promise<ComponentType<P>>,
): { Dialog: ComponentType<P>; preload: () => void } {
  const loadOnce = withChunkReload(load);
  const Lazy = lazy(async () => ({ default: await loadOnce() })) as unknown as ComponentType<P>;
  function Dialog(props: P) {
    const [opened, setOpened] = useState(props.open);
    if (props.open && !opened) setOpened(true);
    if (!opened) return null;
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return { Dialog, preload: () => void loadOnce().catch(() => undefined) };
}
