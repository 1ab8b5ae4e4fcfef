/**
 * The review viewer in a dialog, opened by the learner from the lesson page and from 我的作业.
 * Pages load it the first time it opens (`LazyReviewDialog`, decision 048): the viewer and its
 * drawing code stay out of their initial JavaScript.
 */
import type { HomeworkSubmission } from "../../../shared/contracts/homework";
import { Modal } from "../../lib/modal";
import { ReviewViewer } from "./ReviewViewer";

export function ReviewDialog({
  open,
  submission,
  onClose,
  onResubmit,
}: {
  open: boolean;
  /** Null keeps the dialog closed. */
  submission: HomeworkSubmission | null;
  onClose: () => void;
  onResubmit?: () => void;
}) {
  return (
    <Modal open={open && submission !== null} onClose={onClose} title="作业批改" className="hw-review-dialog">
      {submission ? <ReviewViewer submission={submission} onResubmit={onResubmit} ownerControls /> : null}
    </Modal>
  );
}
