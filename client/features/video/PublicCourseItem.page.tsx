/** One free public course. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function PublicCourseItemPage() {
  return (
    <Page>
      <EmptyState
        glyph="公"
        title="公开课内容即将开放"
        action={
          <Link className="button" to="/video">
            返回公开课
          </Link>
        }
      >
        <p>免费公开课的视频和讲义将在这里播放，无需购买，登录后还能保存观看进度。</p>
        <p>公开课会随课程服务一起上线。</p>
      </EmptyState>
    </Page>
  );
}
