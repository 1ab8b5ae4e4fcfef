/** The learner's homework: submissions, reviews and resubmissions. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function HomeworkPage() {
  return (
    <Page>
      <EmptyState
        glyph="作"
        title="我的作业即将开放"
        action={
          <Link className="button" to="/guide#homework">
            了解怎样交作业
          </Link>
        }
      >
        <p>你提交的作业、批改状态、老师的评级与评语都会在这里；被退回重写的作业，也可以在这里修改后重新提交。</p>
        <p>作业服务上线后即可使用。</p>
      </EmptyState>
    </Page>
  );
}
