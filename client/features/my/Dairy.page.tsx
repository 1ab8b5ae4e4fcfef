/** The practice diary: daily check-ins with minutes, characters and a photo. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function DairyPage() {
  return (
    <Page>
      <EmptyState
        glyph="记"
        title="练字日记即将开放"
        action={
          <Link className="button" to="/guide#diary">
            了解练字日记
          </Link>
        }
      >
        <p>每天练完字，在这里记下练习时长、所写字数，再上传一张当天的习作；连续打卡的天数也会显示在这里。</p>
        <p>练字日记会随账号服务一起上线。</p>
      </EmptyState>
    </Page>
  );
}
