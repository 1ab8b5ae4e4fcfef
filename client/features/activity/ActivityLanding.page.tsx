/** An activity opened from its invitation link. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function ActivityLandingPage() {
  return (
    <Page>
      <EmptyState
        glyph="约"
        title="活动页面即将开放"
        action={
          <Link className="button" to="/guide">
            阅读新手指南
          </Link>
        }
      >
        <p>通过邀请链接打开的活动会在这里展示：活动介绍、时间安排、参与方式和报名入口。</p>
        <p>活动服务上线后，这个链接就能直接使用。在此之前，可以先看看已经开放的学习指南。</p>
      </EmptyState>
    </Page>
  );
}
