/** 关于我们: what the school is for, what it teaches, how learning works and what it values. */
import { Link } from "../../routing/link";
import { aboutProducts } from "../../../shared/routes";
import { useRootData } from "../../lib/root-data";
import { Page } from "../../components/Page";

export default function AboutPage() {
  const { siteName } = useRootData();
  return (
    <Page lead={`${siteName}是一所开在网上的书法与写作学堂，陪你把字写好，把文章写好。`}>
      <div className="article-layout">
        <div className="prose">
          <section aria-labelledby="about-mission">
            <h2 id="about-mission">我们想做的事</h2>
            <p>
              古人说“临池学书，池水尽墨”。写字没有捷径，一笔一画都要落在纸上，一天一天地练出来。可是对今天的大多数人来说，难的往往不是肯不肯下功夫，而是身边没有老师：不知道该临哪本帖，不知道自己的字错在哪里，练了一阵子看不到进步，也就放下了。
            </p>
            <p>
              {siteName}
              想把“有老师带着练”这件事搬到网上：系统的课程告诉你先学什么、后学什么；老师的示范让你看清每一笔怎样起、怎样收；作业批改让你知道哪里写对了、哪里还要改；练字日记让每天的一点功夫都有迹可循。
            </p>
          </section>

          <section aria-labelledby="about-teach">
            <h2 id="about-teach">我们教什么</h2>
            <ul className="card-grid">
              <li className="card">
                <h3>毛笔书法</h3>
                <p>楷、行、隶、篆、草五种书体，从执笔、基本笔画学起，到临摹经典碑帖，再到完成一幅作品。</p>
                <Link className="card__link text-link" to="/about-maobi">
                  了解{aboutProducts.maobi}
                </Link>
              </li>
              <li className="card">
                <h3>硬笔书法</h3>
                <p>用钢笔、中性笔写好日常的字：规范楷书打底，再练流畅实用的行楷。</p>
                <Link className="card__link text-link" to="/about-yingbi">
                  了解{aboutProducts.yingbi}
                </Link>
              </li>
              <li className="card">
                <h3>写作</h3>
                <p>从观察和记录开始，练段落、练结构、练文体，把想说的话写清楚、写动人。</p>
                <Link className="card__link text-link" to="/about-xiezuo">
                  了解{aboutProducts.xiezuo}
                </Link>
              </li>
              <li className="card">
                <h3>国学</h3>
                <p>诗词、经典选读与文房常识。读懂所写的内容，字里才有精神。</p>
              </li>
            </ul>
          </section>

          <section aria-labelledby="about-how">
            <h2 id="about-how">在这里怎样学</h2>
            <h3>录播课</h3>
            <p>
              每门课程按章节编排，每一课时讲清一个问题。老师的示范用近景拍摄，看得清笔锋的方向和提按的变化。学习进度和播放倍速会自动保存，换一台电脑也能从上次停下的地方接着看。每门课都有可以免费试听的课时，先看一看再决定。
            </p>
            <h3>直播课</h3>
            <p>
              直播课按课表开课，老师现场书写、讲解、点评作业，你可以在直播间里提问。错过了也不要紧，直播结束后会生成回放，报名的学员可以随时回看。具体做法见
              <Link to="/guide/live">直播课指南</Link>。
            </p>
            <h3>作业批改</h3>
            <p>
              每节课后把自己的习作拍照上传。老师会逐份批改：给出“优、良、中、需加强”的评级，写下评语，并直接在照片上圈画需要调整的笔画。系统还可以在你的字上叠加田字格、米字格或九宫格，和范字并排对照。需要重写的作业会退回并注明原因，你可以修改后再交。
            </p>
            <h3>练字日记</h3>
            <p>
              每天练完字，花一分钟记下时长、字数，再拍一张当天的习作。连续打卡的天数、直播课安排和训练营的解锁日都汇总在学习日历上，回头翻看，进步一目了然。
            </p>
          </section>

          <section aria-labelledby="about-values">
            <h2 id="about-values">我们相信</h2>
            <ul>
              <li>
                <strong>慢功夫比速成可靠。</strong>
                我们不承诺“七天写一手好字”，只承诺每一步都讲清楚，每一份作业都认真看。
              </li>
              <li>
                <strong>反馈是学习的一半。</strong>
                没有人指出问题，练得再多也可能在重复错误；所以作业批改是我们课程的核心，而不是附加服务。
              </li>
              <li>
                <strong>诚实对待学员。</strong>
                课程介绍写真实的内容，价格和规则写在明处，退款按规则办理，不虚构销量，不制造焦虑。
              </li>
              <li>
                <strong>尊重你的时间和隐私。</strong>不用无关的消息打扰你；作品只有在你同意后才会公开展示。
              </li>
            </ul>
          </section>
        </div>

        <aside className="card article-aside" aria-labelledby="about-aside">
          <h2 id="about-aside">继续了解</h2>
          <ul>
            <li>
              <Link to="/guide">新手指南</Link>
            </li>
            <li>
              <Link to="/guide/live">直播课指南</Link>
            </li>
            <li>
              <Link to="/protocol/contact">联系我们</Link>
            </li>
            <li>
              <Link to="/protocol/feedback">意见反馈</Link>
            </li>
          </ul>
          <Link className="button button--primary" to="/product/list">
            浏览课程
          </Link>
        </aside>
      </div>
    </Page>
  );
}
