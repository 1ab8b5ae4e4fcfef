/** The personal centre's start page. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function OverviewPage() {
  return (
    <Page>
      <EmptyState
        glyph="我"
        title="个人中心即将开放"
        action={
          <Link className="button" to="/guide">
            阅读新手指南
          </Link>
        }
      >
        <p>这里将显示你的学习概况：最近在学的课程、待完成的作业、即将开始的直播，以及金币与笔山余额。</p>
        <p>个人中心会随账号服务一起上线。</p>
      </EmptyState>
    </Page>
  );
}
