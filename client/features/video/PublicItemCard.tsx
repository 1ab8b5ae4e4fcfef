/**
 * The /video grid: a public lesson's card (cover with its length, title, teacher and a line of
 * summary), the grid of them, and what stands there while there are none.
 */
import { Link } from "../../routing/link";
import { EmptyState } from "../../components/EmptyState";
import { type PublicItemSummary } from "../../../shared/contracts/learning";
import { coverSizes, coverUrl } from "../../../shared/media";
import { LazyImage } from "../../lib/lazy-image";
import { formatClock } from "../../../shared/format";

export const publicItemPath = (id: number) => `/video/PublicCourseItem?id=${id}`;
export const publicItemCover = (item: { coverChar: string }) => coverUrl(item.coverChar, "gold", "landscape");

export function PublicItemCard({ item, priority }: { item: PublicItemSummary; priority?: boolean }) {
  const size = coverSizes.landscape;
  return (
    <article className="card public-card">
      <Link to={publicItemPath(item.id)} className="public-card__link">
        <span className="public-card__cover">
          <LazyImage
            src={publicItemCover(item)}
            alt={`${item.title}封面`}
            width={size.width}
            height={size.height}
            priority={priority}
          />
          <span className="public-card__badge">免费</span>
          <span className="public-card__play">
            <span className="visually-hidden">时长 </span>
            {formatClock(item.durationSeconds)}
          </span>
        </span>
        <h3 className="public-card__title">{item.title}</h3>
      </Link>
      <p className="public-card__meta">{item.teacherName}老师</p>
      <p className="public-card__summary">{item.summary}</p>
    </article>
  );
}

/**
 * `firstRow`: how many cards open the page above the fold (the /video list's first row, whose
 * covers are fetched with the document); 0 where the grid comes further down.
 */
export function PublicItemGrid({ items, firstRow = 0 }: { items: PublicItemSummary[]; firstRow?: number }) {
  return (
    <ul className="public-grid">
      {items.map((item, index) => (
        <li key={item.id}>
          <PublicItemCard item={item} priority={index < firstRow} />
        </li>
      ))}
    </ul>
  );
}

export function NoPublicItems() {
  return (
    <EmptyState
      glyph="公"
      title="公开课还在录制中"
      action={
        <Link className="button button--primary" to="/product/list">
          浏览全部课程
        </Link>
      }
    >
      <p>老师们正在准备新的公开课，过几天再来看看吧。</p>
    </EmptyState>
  );
}
