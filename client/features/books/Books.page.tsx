/** The book shop: model books, theory and reading that go with the courses. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function BooksPage() {
  return (
    <Page>
      <EmptyState
        glyph="书"
        title="书籍即将上架"
        action={
          <Link className="button" to="/stationery">
            看看文房
          </Link>
        }
      >
        <p>这里将陈列与课程配套的字帖、碑帖选本，以及书法、写作和国学类读物，每本书都会注明适合的学习阶段。</p>
        <p>书籍服务上线后即可浏览和购买。</p>
      </EmptyState>
    </Page>
  );
}
