/** 共读: reading one book together on a shared schedule. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function ReadingPage() {
  return (
    <Page>
      <EmptyState
        glyph="读"
        title="共读活动即将开放"
        action={
          <Link className="button" to="/about-xiezuo">
            了解写作课程
          </Link>
        }
      >
        <p>和同学一起按计划读一本书：每天一段章节，写下读书笔记，在讨论中互相启发。</p>
        <p>共读活动会随课程服务一起上线。</p>
      </EmptyState>
    </Page>
  );
}
