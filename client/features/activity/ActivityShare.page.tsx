/** The share page of an activity (clean layout, opened from shares). Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function ActivitySharePage() {
  return (
    <Page>
      <EmptyState
        glyph="邀"
        title="活动分享页即将开放"
        action={
          <Link className="button" to="/">
            去首页看看
          </Link>
        }
      >
        <p>朋友分享给你的活动会在这里展示：活动内容、参与的同学和你的专属邀请。</p>
        <p>活动服务上线后即可查看。</p>
      </EmptyState>
    </Page>
  );
}
