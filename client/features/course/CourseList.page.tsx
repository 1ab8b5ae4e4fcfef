/**
 * The course catalogue, filtered by `?category=<pinyin>` (the home page's entry tiles land
 * here). Until the course service arrives it says which catalogue is coming.
 */
import { Link, useSearchParams } from "react-router-dom";
import { courseCategoryName } from "../../../shared/catalogue";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";

export default function CourseListPage() {
  const [searchParams] = useSearchParams();
  const key = searchParams.get("category") ?? "";
  const category = courseCategoryName(key);
  return (
    <Page title={category ? `${category}课程` : undefined}>
      <EmptyState
        glyph={category ? category.charAt(0) : "课"}
        title={category ? `${category}课程即将上架` : "课程即将上架"}
        action={
          <>
            <Link className="button" to="/guide">
              阅读新手指南
            </Link>
            {category ? (
              <Link className="button" to="/product/list">
                查看全部分类
              </Link>
            ) : null}
          </>
        }
      >
        <p>
          {category
            ? `${category}方向的录播课、直播课和训练营将在这里按学习阶段陈列，每门课都会写明适合谁、共有多少课时，并提供免费试听。`
            : "楷书、行书、隶书、篆书、草书、硬笔、写作和国学课程将在这里按分类和学习阶段陈列，每门课都会写明适合谁、共有多少课时，并提供免费试听。"}
        </p>
        <p>课程服务上线后即可浏览和报名。</p>
      </EmptyState>
    </Page>
  );
}
