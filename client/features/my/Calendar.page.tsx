/** The learning calendar: live lessons, camp unlock days and check-ins. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function CalendarPage() {
  return (
    <Page>
      <EmptyState
        glyph="历"
        title="学习日历即将开放"
        action={
          <Link className="button" to="/guide#diary">
            了解练字日记
          </Link>
        }
      >
        <p>报名的直播课时间、训练营的解锁日和每天的练字打卡，将汇总在这张日历上。</p>
        <p>日历会随课程与练字日记服务一起上线。</p>
      </EmptyState>
    </Page>
  );
}
