/** The learner's profile. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function InformationPage() {
  return (
    <Page>
      <EmptyState
        glyph="名"
        title="个人资料即将开放"
        action={
          <Link className="button" to="/protocol/privacy">
            阅读隐私政策
          </Link>
        }
      >
        <p>可以在这里修改昵称、头像、性别、地区和个人简介。老师批改作业和在直播间里看到的，就是这些信息。</p>
        <p>个人资料会随账号服务一起上线。</p>
      </EmptyState>
    </Page>
  );
}
