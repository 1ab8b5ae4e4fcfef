/** The detail of one book or stationery item. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function CommodityPage() {
  return (
    <Page>
      <EmptyState
        glyph="物"
        title="商品详情即将开放"
        action={
          <>
            <Link className="button" to="/stationery">
              返回文房
            </Link>
            <Link className="button" to="/books">
              看看书籍
            </Link>
          </>
        }
      >
        <p>书籍与文房商品的图片、规格、价格、库存和配送说明将在这里展示。</p>
        <p>商城服务上线后即可查看和购买。</p>
      </EmptyState>
    </Page>
  );
}
