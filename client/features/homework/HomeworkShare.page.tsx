/** The share page of one piece of homework (clean layout). Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function HomeworkSharePage() {
  return (
    <Page>
      <EmptyState
        glyph="赏"
        title="作业分享页即将开放"
        action={
          <Link className="button" to="/">
            去首页看看
          </Link>
        }
      >
        <p>同学分享的作业将在这里展示：作业照片、老师的评级、评语与批注。</p>
        <p>作业服务上线后即可查看。</p>
      </EmptyState>
    </Page>
  );
}
