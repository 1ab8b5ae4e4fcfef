/** 我的课程: every course the learner has, with progress and the way back to where they stopped. */
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { CourseCard } from "../../components/cards/CatalogueCards";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { ContinueLink, LastLearned, ProgressBar } from "./CourseProgress";

export async function loader({ env, signal }: PageLoaderArgs) {
  const mine = await env.api("/api/courses/mine", {
    signal,
    schema: import("../../../shared/contracts/courses").then((m) => m.myCoursesSchema),
  });
  return {
    mine,
    meta: { title: "我的课程", description: "我报名和购买的课程，以及每门课的学习进度。", noindex: true },
  };
}

export default function AllCoursePage() {
  const { mine } = useLoaderData<typeof loader>();
  return (
    <Page lead={mine.total ? `共 ${mine.total} 门课程，最近学过的排在前面。` : undefined}>
      {mine.items.length ? (
        <>
          <h2 className="visually-hidden">课程列表</h2>
          <ul className="my-course-grid">
            {mine.items.map((item) => (
              <li key={item.course.id}>
                <CourseCard
                  course={item.course}
                  footer={
                    <div className="my-course-foot">
                      <ProgressBar item={item} />
                      <LastLearned item={item} />
                      <ContinueLink item={item} />
                    </div>
                  }
                />
              </li>
            ))}
          </ul>
        </>
      ) : (
        <EmptyState
          glyph="课"
          title="还没有课程"
          action={
            <Link className="button button--primary" to="/product/list">
              去选课
            </Link>
          }
        >
          <p>报名免费课或购买课程后，课程会出现在这里，并记下你学到了哪里。</p>
        </EmptyState>
      )}
    </Page>
  );
}
