/** Site search over courses, books and stationery. Until the search service arrives it says so. */
import { Link, useSearchParams } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function SearchPage() {
  const [searchParams] = useSearchParams();
  const query = (searchParams.get("q") ?? "").trim();
  return (
    <Page lead={query ? `搜索“${query}”` : undefined}>
      <EmptyState
        glyph="寻"
        title="搜索功能即将开放"
        action={
          <Link className="button" to="/product/list">
            按分类浏览课程
          </Link>
        }
      >
        <p>
          {query ? `暂时还不能搜索“${query}”。` : ""}
          搜索将覆盖课程、书籍和文房用品，可以按课程名、老师、书体或碑帖名查找。
        </p>
        <p>搜索服务上线后即可使用。</p>
      </EmptyState>
    </Page>
  );
}
