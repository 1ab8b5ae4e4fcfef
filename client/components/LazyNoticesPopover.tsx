/**
 * The header's 通知 button for signed-in visitors, its code loaded with the first page that shows
 * it (decision 048): anonymous pages, most of the traffic, do not carry it. The server preloads
 * it for signed-in visitors' pages; the login dialog starts loading it, so the button is ready
 * when a visitor signs in. Its styles stay with the header's, so the button is styled from the
 * first paint.
 */
import { lazy, Suspense } from "react";
import { withChunkReload } from "../routing/chunk-reload";
import "./NoticesPopover.css";

/** The manifest key of the popover's module (the server preloads it for signed-in visitors). */
export const NOTICES_POPOVER_MODULE = "client/components/NoticesPopover.tsx";

const load = withChunkReload(() => import("./NoticesPopover"));
const Popover = lazy(async () => ({ default: (await load()).NoticesPopover }));

export function preloadNoticesPopover() {
  load().catch(() => {});
}

export function LazyNoticesPopover({ unread }: { unread: number }) {
  return (
    <Suspense fallback={null}>
      <Popover unread={unread} />
    </Suspense>
  );
}
