/**
 * One stationery item: a gallery with thumbnails, its SKUs (sold-out ones cannot be chosen),
 * the price and stock of the chosen SKU, a quantity bounded by that stock, and a buy button
 * that says honestly that ordering is not open yet. Unknown ids are 404.
 */
import { useState } from "react";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { type CommodityDetail, skuStockLabel } from "../../../shared/contracts/shop";
import { coverSizes } from "../../../shared/media";
import { CommodityCard, Price } from "../../components/cards/CatalogueCards";
import { Page } from "../../components/Page";
import { LazyImage } from "../../lib/lazy-image";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { useBuy } from "../../components/commerce/useBuy";
import { BuyActions, ProductSection, QuantityStepper, StockState } from "../../components/shop/product-buy";
import { formatYuan } from "../../../shared/money";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const shopContract = () => import("../../../shared/contracts/shop");

const availability = (stock: number) => (stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock");

export async function loader({ env, params, signal }: PageLoaderArgs) {
  // An unknown id answers 404, which the page pipeline turns into the 404 page.
  const commodity = await env.api(`/api/shop/commodities/${params.id}`, {
    signal,
    schema: shopContract().then((m) => m.commodityDetailSchema),
  });
  const image = commodity.gallery[0]?.url;
  return {
    commodity,
    meta: {
      title: commodity.title,
      description: `${commodity.summary}。${commodity.description}`.slice(0, 150),
      image,
      type: "product",
      jsonLd: {
        "@type": "Product",
        name: commodity.title,
        description: commodity.description || commodity.summary,
        category: commodity.category,
        image: commodity.gallery.map((g) => new URL(g.url, commodity.url).toString()),
        url: commodity.url,
        offers: {
          "@type": "AggregateOffer",
          priceCurrency: "CNY",
          lowPrice: formatYuan(commodity.lowPriceCents),
          highPrice: formatYuan(commodity.highPriceCents),
          offerCount: commodity.skus.length,
          availability: availability(commodity.inStock ? 1 : 0),
          offers: commodity.skus.map((sku) => ({
            "@type": "Offer",
            name: `${commodity.title} ${sku.name}`,
            sku: String(sku.id),
            price: formatYuan(sku.priceCents),
            priceCurrency: "CNY",
            availability: availability(sku.stock),
            url: commodity.url,
          })),
        },
      },
    },
  };
}

export default function CommodityPage() {
  const { commodity } = useLoaderData<typeof loader>();
  // Keyed: moving to a related item starts again with its own first SKU.
  return <CommodityView key={commodity.id} commodity={commodity} />;
}

function CommodityView({ commodity }: { commodity: CommodityDetail }) {
  const firstAvailable = commodity.skus.find((s) => s.stock > 0) ?? commodity.skus[0];
  const [skuId, setSkuId] = useState(firstAvailable?.id);
  const [picture, setPicture] = useState(0);
  const [quantity, setQuantity] = useState(1);
  const sku = commodity.skus.find((s) => s.id === skuId) ?? firstAvailable;
  const purchase = useBuy({
    itemType: "commodity",
    itemId: commodity.id,
    skuId: sku?.id,
    quantity,
    label: `${commodity.title}（${sku?.name ?? ""}）× ${quantity}`,
  });
  const soldOut = !sku || sku.stock <= 0;
  const size = coverSizes.square;
  const shown = commodity.gallery[picture] ?? commodity.gallery[0];

  const choose = (id: number) => {
    const next = commodity.skus.find((s) => s.id === id);
    if (!next || next.stock <= 0) return;
    setSkuId(id);
    setQuantity((q) => Math.min(q, next.stock));
  };

  return (
    <Page title={commodity.title} lead={commodity.summary}>
      <div className="product">
        <div className="gallery">
          <div className="product__cover">
            {shown ? (
              <LazyImage
                key={shown.url}
                src={shown.url}
                alt={`${commodity.title}图片 ${picture + 1}`}
                width={size.width}
                height={size.height}
                // The first picture is the page's largest paint: fetched with the document.
                priority={picture === 0}
              />
            ) : null}
          </div>
          {commodity.gallery.length > 1 ? (
            <ul className="gallery__thumbs" aria-label="商品图片">
              {commodity.gallery.map((g, i) => (
                <li key={`${g.char}-${i}`}>
                  <button
                    type="button"
                    className="gallery__thumb"
                    aria-pressed={i === picture}
                    aria-label={`查看第 ${i + 1} 张图片`}
                    onClick={() => setPicture(i)}
                  >
                    <LazyImage src={g.url} alt="" width={size.width} height={size.height} />
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>

        <div className="product__info">
          <p className="product__byline">
            <Link className="text-link" to={`/stationery?category=${encodeURIComponent(commodity.category)}`}>
              {commodity.category}
            </Link>{" "}
            · 已售 {commodity.sales.toLocaleString("zh-CN")}
          </p>
          <div className="card buy-box">
            <div className="buy-box__price" data-testid="sku-price">
              {sku ? <Price cents={sku.priceCents} originalCents={sku.originalPriceCents} /> : null}
              {sku ? <StockState stock={sku.stock} label={skuStockLabel(sku.stock)} /> : null}
            </div>
            <fieldset className="sku-picker">
              <legend>规格</legend>
              <div className="sku-picker__options">
                {commodity.skus.map((s) => (
                  <button
                    key={s.id}
                    type="button"
                    className="sku-option"
                    aria-pressed={s.id === sku?.id}
                    disabled={s.stock <= 0}
                    title={s.stock <= 0 ? "已售罄" : skuStockLabel(s.stock)}
                    onClick={() => choose(s.id)}
                  >
                    {s.name}
                    {s.stock <= 0 ? <span className="visually-hidden">（已售罄）</span> : null}
                  </button>
                ))}
              </div>
            </fieldset>
            <QuantityStepper
              value={quantity}
              max={sku?.stock ?? 0}
              unit="件"
              disabled={soldOut}
              onChange={setQuantity}
            />
            <BuyActions
              soldOut={soldOut}
              soldOutLabel="已售罄"
              soldOutNote="这件商品暂时售罄，补货后会在这里恢复购买。"
              problem={purchase.problem}
              off={purchase.off}
              onBuy={purchase.buy}
              onIntent={purchase.preload}
            />
          </div>
        </div>
      </div>

      <ProductSection id="commodity-description" title="商品介绍">
        <p className="product-section__text">{commodity.description || commodity.summary}</p>
      </ProductSection>

      {commodity.related.length > 0 ? (
        <ProductSection id="commodity-related" title={`同类好物 · ${commodity.category}`}>
          <ul className="catalogue-grid catalogue-grid--four">
            {commodity.related.map((c) => (
              <li key={c.id}>
                <CommodityCard commodity={c} />
              </li>
            ))}
          </ul>
        </ProductSection>
      ) : null}

      {purchase.dialogs}
    </Page>
  );
}
