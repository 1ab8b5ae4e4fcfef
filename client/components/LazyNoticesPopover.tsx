/**
 * The header's 通知 button for signed-in visitors, its code loaded with the first page that shows
 * it (decision 048): anonymous pages, most of the traffic, do not carry it. The server draws the
 * button; in the browser its code is not among the page's preloads but loads while the page
 * hydrates, and React hydrates the button when it arrives (the boundary keeps the server's HTML
 * until then, and a click on it meanwhile is replayed; decision 054). The login dialog starts
 * loading it, so the button is ready when a visitor signs in. Its styles stay with the header's,
 * so the button is styled from the first paint.
 */
import { lazy, Suspense } from "react";
import { withChunkReload } from "../routing/chunk-reload";
import "./NoticesPopover.css";

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
