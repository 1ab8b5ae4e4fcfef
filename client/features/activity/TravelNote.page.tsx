/** 游记: travel notes on steles, museums and inscriptions. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function TravelNotePage() {
  return (
    <Page>
      <EmptyState
        glyph="游"
        title="游记专栏即将开放"
        action={
          <Link className="button" to="/about-xiezuo">
            了解写作课程
          </Link>
        }
      >
        <p>这里将刊登老师和学员寻访碑林、博物馆与山川题刻时写下的游记，看字，也看字背后的人和地方。</p>
        <p>专栏会随内容服务一起上线。</p>
      </EmptyState>
    </Page>
  );
}
