/** Live lessons: coming and running broadcasts. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function LivePage() {
  return (
    <Page>
      <EmptyState
        glyph="播"
        title="直播课即将开放"
        action={
          <Link className="button" to="/guide/live">
            阅读直播课指南
          </Link>
        }
      >
        <p>这里将列出即将开始和正在进行的直播课。报名后，开课时可以从这里进入直播间，和老师实时交流。</p>
        <p>直播服务上线后即可报名。上课前可以先读一读直播课指南。</p>
      </EmptyState>
    </Page>
  );
}
