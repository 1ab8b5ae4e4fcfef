/** The list of current and coming activities. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function ShowActivityPage() {
  return (
    <Page>
      <EmptyState
        glyph="展"
        title="活动即将上线"
        action={
          <Link className="button" to="/">
            返回首页
          </Link>
        }
      >
        <p>这里将列出正在进行和即将开始的活动，例如临帖打卡、节气习字、共读和作品展评。</p>
        <p>目前还没有可以参加的活动，活动服务上线后会在这里公布。</p>
      </EmptyState>
    </Page>
  );
}
