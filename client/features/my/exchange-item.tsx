/**
 * An item of the exchange mall: its amount in 金币 / 笔山, its card, and why it cannot be redeemed
 * now.
 */
import { Link } from "../../routing/link";
import { currencies } from "../../../shared/currency";
import { type ExchangeItem, exchangeItemKinds, type WalletCurrency } from "../../../shared/contracts/wallet";
import { coverSizes, coverUrl, type CoverTone } from "../../../shared/media";
import { LazyImage } from "../../lib/lazy-image";
import "./exchange.css";

export const kindTones: Record<ExchangeItem["kind"], CoverTone> = {
  commodity: "jade",
  book: "gold",
  coupon: "red",
  course: "indigo",
};

export function Amount({ value, currency }: { value: number; currency: WalletCurrency }) {
  return (
    <span className={`coin-amount coin-amount--${currency}`}>
      <strong>{value.toLocaleString("zh-CN")}</strong> {currencies[currency]}
    </span>
  );
}

/** Why an item cannot be redeemed right now, or null. */
export function blockedReason(item: ExchangeItem): string | null {
  if (item.stock <= 0) return "已兑完";
  if (item.redeemed >= item.perUserLimit) return "已达兑换上限";
  return null;
}

export function ExchangeCard({ item }: { item: ExchangeItem }) {
  const size = coverSizes.square;
  const blocked = blockedReason(item);
  return (
    <article className="card exchange-card">
      <Link to={`/my/exchange/detail?id=${item.id}`} className="exchange-card__link">
        <span className="exchange-card__cover">
          <LazyImage
            src={coverUrl(item.coverChar, kindTones[item.kind], "square")}
            alt={`${item.title}图片`}
            width={size.width}
            height={size.height}
          />
          <span className="exchange-card__badge">{exchangeItemKinds[item.kind]}</span>
        </span>
        <h3 className="exchange-card__title">{item.title}</h3>
      </Link>
      <p className="exchange-card__price">
        <Amount value={item.price} currency={item.currency} />
      </p>
      <p className="exchange-card__meta">
        {blocked ? <span className="exchange-card__blocked">{blocked}</span> : <span>库存 {item.stock}</span>}
        <span>每人限兑 {item.perUserLimit}</span>
      </p>
    </article>
  );
}
