/** The review dialog, loaded the first time it opens (decision 048); `open` follows `submission`. */
import type { ComponentProps } from "react";
import { lazyDialog } from "../../lib/lazy-dialog";
import type { ReviewDialog as Eager } from "./ReviewDialog";

const { Dialog } = lazyDialog(() => import("./ReviewDialog").then((m) => m.ReviewDialog));

export function LazyReviewDialog(props: Omit<ComponentProps<typeof Eager>, "open">) {
  return <Dialog {...props} open={props.submission !== null} />;
}
