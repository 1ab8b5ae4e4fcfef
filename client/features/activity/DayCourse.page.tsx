/** 每日一课: one short lesson a day. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function DayCoursePage() {
  return (
    <Page>
      <EmptyState
        glyph="日"
        title="每日一课即将开放"
        action={
          <Link className="button" to="/guide">
            阅读新手指南
          </Link>
        }
      >
        <p>每天一节几分钟的短课：讲一个字、一个笔画或一处结构，适合利用零碎时间坚持练习。</p>
        <p>每日一课会随课程服务一起上线。</p>
      </EmptyState>
    </Page>
  );
}
