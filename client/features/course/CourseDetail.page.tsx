/** The detail of one course. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function CourseDetailPage() {
  return (
    <Page>
      <EmptyState
        glyph="课"
        title="课程详情即将开放"
        action={
          <Link className="button" to="/product/list">
            返回课程
          </Link>
        }
      >
        <p>这里将展示课程介绍、授课老师、适合的学员、章节目录和可以免费试听的课时。</p>
        <p>课程服务上线后即可查看和报名。</p>
      </EmptyState>
    </Page>
  );
}
