/** Books by category. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function BookTabsPage() {
  return (
    <Page>
      <EmptyState
        glyph="卷"
        title="书籍分类即将上架"
        action={
          <Link className="button" to="/books">
            返回书籍
          </Link>
        }
      >
        <p>书籍将按字帖与碑帖、书法理论、写作与阅读、国学经典分类陈列，方便按需要查找。</p>
        <p>书籍服务上线后即可浏览。</p>
      </EmptyState>
    </Page>
  );
}
