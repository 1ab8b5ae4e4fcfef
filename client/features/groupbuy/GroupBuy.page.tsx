/** One group buy: members, time left and the way to join. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function GroupBuyPage() {
  return (
    <Page>
      <EmptyState
        glyph="团"
        title="拼团详情即将开放"
        action={
          <Link className="button" to="/protocol/service">
            查看拼团规则
          </Link>
        }
      >
        <p>这里将显示拼团的课程、成团人数、已参团的同学、剩余时间和参团入口。</p>
        <p>拼团服务上线后，分享给你的拼团链接即可在这里打开。</p>
      </EmptyState>
    </Page>
  );
}
