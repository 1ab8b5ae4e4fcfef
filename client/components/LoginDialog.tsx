/**
 * The login dialog (client/components/login/Dialog.tsx), loaded the first time it opens: its
 * panels, forms and input checks stay out of every page's initial JavaScript. Closed, the
 * dialog renders nothing, on the server too, so the page's HTML is the same either way.
 */
import { lazy, Suspense, useState } from "react";
import { withChunkReload } from "../routing/chunk-reload";
import { preloadNoticesPopover } from "./LazyNoticesPopover";

// Signing in shows the header's notices button: its code loads along with the dialog's.
const loadDialog = withChunkReload(() => {
  preloadNoticesPopover();
  return import("./login/Dialog");
});
const Dialog = lazy(async () => ({ default: (await loadDialog()).LoginDialog }));

/** Starts loading the dialog ahead of a likely click (hover or focus of a login button). */
export function preloadLoginDialog() {
  loadDialog().catch(() => {});
}

export function LoginDialog(props: {
  open: boolean;
  onClose: () => void;
  /** The panel to show on opening (phone login when absent or unknown). */
  initialPanel?: string | null;
}) {
  // Once opened it stays mounted, so closing plays the dialog's own fade-out.
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <Dialog {...props} />
    </Suspense>
  );
}
