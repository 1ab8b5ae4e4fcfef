/** 静心习字: a quiet, timed writing session. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function CalmnessPage() {
  return (
    <Page>
      <EmptyState
        glyph="静"
        title="静心习字即将开放"
        action={
          <Link className="button" to="/guide#diary">
            了解练字日记
          </Link>
        }
      >
        <p>一个安静的练字空间：选一段想写的文字，定好时长，专心书写；结束后可以把这次练习记入练字日记。</p>
        <p>这项功能会随练字日记一起上线。</p>
      </EmptyState>
    </Page>
  );
}
