/**
 * The catalogue's cards: course, book, commodity and live session. One look everywhere they
 * appear (home, lists, search, personal centre); each takes a summary from
 * shared/contracts/catalogue and links to its detail page. Covers lazy-load with fixed sizes.
 */
import type { ReactNode } from "react";
import { Link } from "../../routing/link";
import { courseCategoryName } from "../../../shared/catalogue";
import {
  type BookSummary,
  type CommoditySummary,
  type CourseSummary,
  categoryTones,
  courseKinds,
  courseLevels,
  type LiveSummary,
  liveStates,
} from "../../../shared/contracts/catalogue";
import { coverSizes, coverOf, coverUrl } from "../../../shared/media";
import { formatMoney, priceLabel } from "../../../shared/money";
import { LazyImage } from "../../lib/lazy-image";
import "./cards.css";
import { formatMonthDayTime } from "../../../shared/format";

export function Price({ cents, originalCents }: { cents: number; originalCents?: number }) {
  return (
    <span className="price-tag">
      <span className="price-tag__now">{priceLabel(cents)}</span>
      {originalCents !== undefined && originalCents > cents ? (
        <del className="price-tag__was">
          <span className="visually-hidden">原价 </span>
          {formatMoney(originalCents)}
        </del>
      ) : null}
    </span>
  );
}

/** Search matches: the title with every occurrence of `highlight` wrapped in <mark>. */
export function Highlighted({ text, highlight }: { text: string; highlight?: string }) {
  if (!highlight) return <>{text}</>;
  const parts: ReactNode[] = [];
  const lower = text.toLowerCase();
  const needle = highlight.toLowerCase();
  let from = 0;
  for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, from)) {
    if (at > from) parts.push(text.slice(from, at));
    parts.push(<mark key={at}>{text.slice(at, at + needle.length)}</mark>);
    from = at + needle.length;
  }
  parts.push(text.slice(from));
  return <>{parts}</>;
}

export function CourseCard({
  course,
  highlight,
  footer,
  priority,
}: {
  course: CourseSummary;
  highlight?: string;
  footer?: ReactNode;
  /** In the first row of its page: the cover is fetched with the document (LazyImage `priority`). */
  priority?: boolean;
}) {
  const size = coverSizes.landscape;
  return (
    <article className="card catalogue-card catalogue-card--course">
      <Link to={`/course/${course.id}`} className="catalogue-card__link">
        <span className="catalogue-card__cover">
          <LazyImage
            src={coverOf(course, categoryTones[course.category], "landscape")}
            alt={`${course.title}封面`}
            width={size.width}
            height={size.height}
            priority={priority}
          />
          <span className="catalogue-card__badge">{courseKinds[course.kind]}</span>
        </span>
        <h3 className="catalogue-card__title">
          <Highlighted text={course.title} highlight={highlight} />
        </h3>
      </Link>
      <p className="catalogue-card__meta">
        {courseCategoryName(course.category)} · {courseLevels[course.level]} · {course.teacherName}老师
      </p>
      {footer ?? (
        <p className="catalogue-card__foot">
          <Price cents={course.priceCents} originalCents={course.originalPriceCents} />
          <span className="catalogue-card__count">{course.learnersCount.toLocaleString("zh-CN")}人在学</span>
        </p>
      )}
    </article>
  );
}

export function BookCard({ book, highlight, priority }: { book: BookSummary; highlight?: string; priority?: boolean }) {
  const size = coverSizes.portrait;
  return (
    <article className="card catalogue-card catalogue-card--book">
      <Link to={`/books/${book.id}`} className="catalogue-card__link">
        <span className="catalogue-card__cover">
          <LazyImage
            src={coverOf(book, "gold", "portrait")}
            alt={`《${book.title}》封面`}
            width={size.width}
            height={size.height}
            priority={priority}
          />
        </span>
        <h3 className="catalogue-card__title">
          <Highlighted text={book.title} highlight={highlight} />
        </h3>
      </Link>
      <p className="catalogue-card__meta">
        {book.author} · {book.publisher}
      </p>
      <p className="catalogue-card__foot">
        <Price cents={book.priceCents} originalCents={book.originalPriceCents} />
        {book.stock === 0 ? <span className="catalogue-card__count">暂时缺货</span> : null}
      </p>
    </article>
  );
}

export function CommodityCard({
  commodity,
  highlight,
  priority,
}: {
  commodity: CommoditySummary;
  highlight?: string;
  priority?: boolean;
}) {
  const size = coverSizes.square;
  return (
    <article className="card catalogue-card catalogue-card--commodity">
      <Link to={`/commodity/${commodity.id}`} className="catalogue-card__link">
        <span className="catalogue-card__cover">
          <LazyImage
            src={coverOf(commodity, "jade", "square")}
            alt={`${commodity.title}图片`}
            width={size.width}
            height={size.height}
            priority={priority}
          />
        </span>
        <h3 className="catalogue-card__title">
          <Highlighted text={commodity.title} highlight={highlight} />
        </h3>
      </Link>
      <p className="catalogue-card__meta">{commodity.summary}</p>
      <p className="catalogue-card__foot">
        <Price cents={commodity.priceCents} originalCents={commodity.originalPriceCents} />
        <span className="catalogue-card__count">{commodity.inStock ? `已售 ${commodity.sales}` : "已售罄"}</span>
      </p>
    </article>
  );
}

export function LiveCard({ live, action, priority }: { live: LiveSummary; action?: ReactNode; priority?: boolean }) {
  const size = coverSizes.landscape;
  return (
    <article className={`card catalogue-card catalogue-card--live catalogue-card--${live.state}`}>
      <span className="catalogue-card__cover">
        <LazyImage
          src={coverUrl(live.coverChar, "red", "landscape")}
          alt={`${live.title}封面`}
          width={size.width}
          height={size.height}
          priority={priority}
        />
        <span className={`catalogue-card__badge live-state live-state--${live.state}`}>{liveStates[live.state]}</span>
      </span>
      <h3 className="catalogue-card__title">{live.title}</h3>
      <p className="catalogue-card__meta">
        {formatMonthDayTime(live.startsAt)} · {live.teacherName}老师{live.isOpen ? " · 公开课" : ""}
      </p>
      {action ? <div className="catalogue-card__foot">{action}</div> : null}
    </article>
  );
}
