/** 退出登录 (clean layout). Ending the session arrives with the accounts service. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function LogoutPage() {
  return (
    <Page>
      <EmptyState
        glyph="别"
        title="正在退出…"
        action={
          <Link className="button button--primary" to="/">
            返回首页
          </Link>
        }
      />
    </Page>
  );
}
