/** 作业墙: excellent work shown with the learner's consent. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function HomeworkPage() {
  return (
    <Page>
      <EmptyState
        glyph="作"
        title="作业墙即将开放"
        action={
          <Link className="button" to="/guide#homework">
            了解怎样交作业
          </Link>
        }
      >
        <p>经学员同意公开的优秀作业将在这里展示，附老师的评级、评语和批注，供大家互相观摩。</p>
        <p>作业服务上线后，这面墙会逐渐挂满。</p>
      </EmptyState>
    </Page>
  );
}
