/**
 * The home page below its categories: popular and new courses, live lessons, new books and
 * stationery, the learner works wall and the teachers. Drawn with the page, hydrated on its own
 * when its code comes (decision 059).
 */
import type { ReactNode } from "react";
import { Link } from "../../routing/link";
import type { CourseSummary, TeacherSummary } from "../../../shared/contracts/catalogue";
import type { Home } from "../../../shared/contracts/home";
import type { WallItem } from "../../../shared/contracts/homework";
import { BookCard, CommodityCard, CourseCard, LiveCard } from "../../components/cards/CatalogueCards";
import { EmptyState } from "../../components/EmptyState";
import { WallCard } from "../../components/homework/WallCard";
import { HomeSection } from "./HomeSection";

function HomeGrid<T extends { id: number }>({
  className,
  items,
  children,
}: {
  className: string;
  items: T[];
  children: (item: T) => ReactNode;
}) {
  return (
    <ul className={className}>
      {items.map((item) => (
        <li key={item.id}>{children(item)}</li>
      ))}
    </ul>
  );
}

function CourseGrid({ courses }: { courses: CourseSummary[] }) {
  return (
    <HomeGrid className="home-grid home-grid--4" items={courses}>
      {(course) => <CourseCard course={course} />}
    </HomeGrid>
  );
}

function TeacherTile({ teacher }: { teacher: TeacherSummary }) {
  return (
    <article className="card teacher-tile">
      <span className="seal seal--upright teacher-tile__seal" aria-hidden="true">
        {teacher.portraitChar}
      </span>
      <h3 className="teacher-tile__name">{teacher.name}</h3>
      <p className="teacher-tile__title">{teacher.title}</p>
      <p className="teacher-tile__specialty">{teacher.specialty}</p>
    </article>
  );
}

export function HomeCatalogue({ home, works }: { home: Home; works: WallItem[] | null }) {
  return (
    <>
      <HomeSection
        id="home-featured"
        title="热门课程"
        lead="学员最多的课，从入门到提高都有。"
        more={["/product/list", "查看全部"]}
      >
        {home.featured.length ? (
          <CourseGrid courses={home.featured} />
        ) : (
          <EmptyState glyph="课" title="课程正在上架">
            <p>老师们正在录制第一批课程，上架后会第一时间出现在这里。</p>
          </EmptyState>
        )}
      </HomeSection>

      {home.newest.length ? (
        <HomeSection
          id="home-newest"
          title="最新上架"
          lead="刚刚开课的新课程。"
          more={["/product/list?sort=newest", "按上架时间看"]}
        >
          <CourseGrid courses={home.newest} />
        </HomeSection>
      ) : null}

      <HomeSection
        id="home-live"
        title="直播课堂"
        lead="正在直播与即将开始的课，老师现场示范、当堂答疑。"
        more={["/live", "全部直播"]}
      >
        {home.live.length ? (
          <HomeGrid className="home-grid home-grid--3" items={home.live}>
            {(live) => (
              <LiveCard
                live={live}
                action={
                  <Link
                    className={`button button--small${live.state === "live" ? " button--primary" : ""}`}
                    to={`/live/${live.id}`}
                  >
                    {live.state === "live" ? "进入直播间" : "查看详情"}
                  </Link>
                }
              />
            )}
          </HomeGrid>
        ) : (
          <EmptyState
            glyph="播"
            title="近期没有直播安排"
            action={
              <Link className="button" to="/playback">
                看看直播回放
              </Link>
            }
          >
            <p>新的直播排定后会显示在这里。</p>
          </EmptyState>
        )}
      </HomeSection>

      <div className="home-shelves">
        <HomeSection id="home-books" title="新书上架" more={["/books", "全部书籍"]}>
          {home.books.length ? (
            <HomeGrid className="home-grid home-grid--books" items={home.books}>
              {(book) => <BookCard book={book} />}
            </HomeGrid>
          ) : (
            <EmptyState glyph="书" title="书籍正在整理" />
          )}
        </HomeSection>
        <HomeSection id="home-stationery" title="文房好物" more={["/stationery", "逛逛文房"]}>
          {home.stationery.length ? (
            <HomeGrid className="home-grid home-grid--4" items={home.stationery}>
              {(commodity) => <CommodityCard commodity={commodity} />}
            </HomeGrid>
          ) : (
            <EmptyState glyph="砚" title="文房用品正在上架" />
          )}
        </HomeSection>
      </div>

      <HomeSection
        id="home-works"
        title="学员作品"
        lead="老师批改后评为“优”的习作，经学员同意后在这里展出。"
        more={works?.length ? ["/homework", "去作业墙看更多"] : undefined}
      >
        {works?.length ? (
          <ul className="home-works">
            {works.map((work) => (
              <li key={work.shareId}>
                <WallCard item={work} />
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState
            glyph="作"
            title="作业墙还空着"
            action={
              <Link className="button" to="/homework">
                去作业墙看看
              </Link>
            }
          >
            <p>看完课交一份作业，被老师评为“优”并选择公开后，你的作品也会出现在这里。</p>
          </EmptyState>
        )}
      </HomeSection>

      {home.teachers.length ? (
        <HomeSection id="home-teachers" title="授课老师" lead="书法家、书法教师与语文老师，各有所长。">
          <HomeGrid className="teacher-grid" items={home.teachers}>
            {(teacher) => <TeacherTile teacher={teacher} />}
          </HomeGrid>
        </HomeSection>
      ) : null}
    </>
  );
}
