/** Watching the lessons of a course. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function VideoDetailPage() {
  return (
    <Page>
      <EmptyState
        glyph="播"
        title="课程视频即将开放"
        action={
          <Link className="button" to="/product/list">
            浏览课程
          </Link>
        }
      >
        <p>课时视频、章节目录和你的学习进度将在这里显示，可以调节倍速，换一台电脑也能接着看。</p>
        <p>课程服务上线后即可观看。</p>
      </EmptyState>
    </Page>
  );
}
