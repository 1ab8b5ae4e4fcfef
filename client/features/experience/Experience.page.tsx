/** 体验课: trial lessons for newcomers. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function ExperiencePage() {
  return (
    <Page>
      <EmptyState
        glyph="试"
        title="体验课即将开放"
        action={
          <>
            <Link className="button" to="/about-maobi">
              毛笔书法
            </Link>
            <Link className="button" to="/about-yingbi">
              硬笔书法
            </Link>
            <Link className="button" to="/about-xiezuo">
              写作
            </Link>
          </>
        }
      >
        <p>还没决定学什么？这里将汇集各门课程可以免费观看的试听课时，先跟老师写几笔，再决定从哪一门开始。</p>
        <p>体验课会随课程服务一起上线。</p>
      </EmptyState>
    </Page>
  );
}
