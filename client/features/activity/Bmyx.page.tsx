/** 笔墨研习: themed study series around one calligrapher or one model work. Until its service arrives the page says what it will hold. */
import { Link } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function BmyxPage() {
  return (
    <Page>
      <EmptyState
        glyph="研"
        title="笔墨研习专题即将开放"
        action={
          <Link className="button" to="/about-maobi">
            了解毛笔书法课程
          </Link>
        }
      >
        <p>这里将汇集围绕一位书家或一部碑帖展开的专题研习：选帖与读帖、临写要点、老师的示范和大家的临作。</p>
        <p>专题会随课程服务一起上线。</p>
      </EmptyState>
    </Page>
  );
}
