/** A work on the wall as a card: thumbnail, level seal, a line of the comment, the learner; opens its share page. */
import { Link } from "../../routing/link";
import { SCRIPT_LABELS, type WallItem } from "../../../shared/contracts/homework";
import { LazyImage } from "../../lib/lazy-image";
import { LevelSeal } from "./LevelSeal";
import "./homework.css";

export function WallCard({ item, priority }: { item: WallItem; priority?: boolean }) {
  return (
    <Link className="wall-card" to={`/homework/share?id=${encodeURIComponent(item.shareId)}`}>
      <LazyImage
        className="wall-card__image"
        src={item.thumbUrl}
        alt={`${item.learner}的${SCRIPT_LABELS[item.script]}作业`}
        width={item.width}
        height={item.height}
        priority={priority}
      />
      <span className="wall-card__seal">
        <LevelSeal level={item.level} size="small" />
      </span>
      <span className="wall-card__text">
        {item.commentLine ? <span className="wall-card__comment">“{item.commentLine}”</span> : null}
        <span className="wall-card__who">
          {item.learner} · {item.courseTitle}
        </span>
      </span>
    </Link>
  );
}
