/** The stationery shop. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function StationeryPage() {
  return (
    <Page>
      <EmptyState
        glyph="砚"
        title="文房用品即将上架"
        action={
          <Link className="button" to="/books">
            看看书籍
          </Link>
        }
      >
        <p>
          笔、墨、纸、砚，以及毛毡、镇纸、笔帘、练习用的格子纸等练字用品将在这里出售，每件都会注明适合的书体和学习阶段。
        </p>
        <p>文房商城上线后即可浏览和购买。</p>
      </EmptyState>
    </Page>
  );
}
