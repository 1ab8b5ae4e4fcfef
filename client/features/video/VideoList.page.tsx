/** The list of free public courses. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function VideoListPage() {
  return (
    <Page>
      <EmptyState
        glyph="公"
        title="公开课即将上线"
        action={
          <Link className="button" to="/guide">
            阅读新手指南
          </Link>
        }
      >
        <p>这里将汇集可以免费观看的公开课，适合在报名之前先认识老师、了解课程。</p>
        <p>公开课会随课程服务一起上线。</p>
      </EmptyState>
    </Page>
  );
}
