/** The learner's courses with progress. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function AllCoursePage() {
  return (
    <Page>
      <EmptyState
        glyph="课"
        title="我的课程即将开放"
        action={
          <Link className="button" to="/product/list">
            浏览课程
          </Link>
        }
      >
        <p>你报名和购买的课程会集中在这里，并显示学习进度，点开就能从上次停下的地方继续。</p>
        <p>课程服务上线后即可使用。</p>
      </EmptyState>
    </Page>
  );
}
