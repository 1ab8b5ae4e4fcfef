/** The course's status with 上架/下架, and its cover image upload. */
import { useRevalidator } from "react-router-dom";
import { Link } from "../../../../routing/link";
import { type AdminCourse, PUBLISH_STATE_LABELS } from "../../../../../shared/contracts/admin-catalogue";
import { Field } from "../../../../components/staff/staff-kit";
import { FormAlert } from "../../../../components/form/FormAlert";
import { useMutation } from "../../../../lib/mutation";
import { browserApi } from "../../../../lib/api";
import { uploadFile } from "../catalogue-api";

export function PublishBar({ course }: { course: AdminCourse }) {
  const action = useMutation();
  const revalidator = useRevalidator();
  const published = course.status === "published";
  return (
    <div className="catalogue-publish">
      <span className={`staff-badge${published ? " staff-badge--on" : ""}`} data-testid="course-status">
        {PUBLISH_STATE_LABELS[course.status]}
      </span>
      <button
        type="button"
        className={`button button--small${published ? "" : " button--primary"}`}
        disabled={action.busy}
        onClick={() =>
          void action
            .run(
              () =>
                browserApi(`/api/admin/courses/${course.id}/${published ? "unpublish" : "publish"}`, {
                  method: "POST",
                  body: {},
                }),
              { done: published ? "已下架" : "已上架，学员现在可以在课程列表和搜索中找到它" },
            )
            .then(() => revalidator.revalidate())
        }
      >
        {published ? "下架" : "上架"}
      </button>
      {published ? (
        <Link className="text-link" to={`/course/${course.id}`}>
          查看课程页
        </Link>
      ) : null}
      <FormAlert look="staff" problem={action.problem} done={action.done} />
    </div>
  );
}

export function CourseCover({ course }: { course: AdminCourse }) {
  const action = useMutation();
  const revalidator = useRevalidator();
  return (
    <div className="catalogue-cover">
      {course.coverImage ? (
        <img src={course.coverImage} alt="课程封面" width={192} height={108} />
      ) : (
        <div className="seal seal--xl" aria-hidden="true">
          {course.coverChar}
        </div>
      )}
      <Field label="上传封面图片" hint="JPEG、PNG 或 WebP，不超过 5 MB；裁成 16:9">
        {(id) => (
          <input
            id={id}
            type="file"
            accept="image/jpeg,image/png,image/webp"
            disabled={action.busy}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file)
                void action
                  .run(() => uploadFile(`/api/admin/courses/${course.id}/cover`, file), { done: "封面已更新" })
                  .then(() => revalidator.revalidate());
            }}
          />
        )}
      </Field>
      <FormAlert look="staff" problem={action.problem} done={action.done} />
    </div>
  );
}
