/** The review viewer in a dialog, opened by the learner from the lesson page and from 我的作业. */
import type { HomeworkSubmission } from "../../../shared/contracts/homework";
import { Modal } from "../../lib/modal";
import { ReviewViewer } from "./ReviewViewer";

export function ReviewDialog({
  submission,
  onClose,
  onResubmit,
}: {
  /** Null keeps the dialog closed. */
  submission: HomeworkSubmission | null;
  onClose: () => void;
  onResubmit?: () => void;
}) {
  return (
    <Modal open={submission !== null} onClose={onClose} title="作业批改" className="hw-review-dialog">
      {submission ? <ReviewViewer submission={submission} onResubmit={onResubmit} ownerControls /> : null}
    </Modal>
  );
}
