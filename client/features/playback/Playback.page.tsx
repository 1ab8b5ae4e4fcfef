/** Recordings of finished live lessons. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function PlaybackPage() {
  return (
    <Page>
      <EmptyState
        glyph="回"
        title="直播回放即将开放"
        action={
          <Link className="button" to="/guide/live#playback">
            了解回放
          </Link>
        }
      >
        <p>已结束的直播课生成回放后会出现在这里，报名的学员可以随时回看，进度会自动保存。</p>
        <p>回放会随直播服务一起上线。</p>
      </EmptyState>
    </Page>
  );
}
