/** The course's own fields (name, category, type, level, teacher, prices, cover character, texts): create or save. */
import { useState } from "react";
import { useNavigate, useRevalidator } from "react-router-dom";
import { courseCategories } from "../../../../../shared/catalogue";
import {
  type AdminCourse,
  COURSE_KINDS,
  COURSE_KIND_LABELS,
  COURSE_LEVELS,
  COURSE_LEVEL_LABELS,
  type TeacherOption,
  adminCourseSchema,
} from "../../../../../shared/contracts/admin-catalogue";
import { InputField, MoneyField, SelectField, TextAreaField } from "../../../../components/staff/staff-fields";
import { centsOf, yuanOf } from "../../../../components/staff/staff-kit";
import { FormAlert } from "../../../../components/form/FormAlert";
import { localProblem, useMutation } from "../../../../lib/mutation";
import { browserApi } from "../../../../lib/api";

type Kind = (typeof COURSE_KINDS)[number];
type Level = (typeof COURSE_LEVELS)[number];

const CATEGORY_OPTIONS = courseCategories.map((c) => ({ value: c.key, label: c.name }));
const KIND_OPTIONS = COURSE_KINDS.map((k) => ({ value: k, label: COURSE_KIND_LABELS[k] }));
const LEVEL_OPTIONS = COURSE_LEVELS.map((k) => ({ value: k, label: COURSE_LEVEL_LABELS[k] }));

export function CourseForm({ course, teachers }: { course: AdminCourse | null; teachers: TeacherOption[] }) {
  const [title, setTitle] = useState(course?.title ?? "");
  const [subtitle, setSubtitle] = useState(course?.subtitle ?? "");
  const [category, setCategory] = useState(course?.category ?? "kaishu");
  const [kind, setKind] = useState<Kind>(course?.kind ?? "recorded");
  const [level, setLevel] = useState<Level>(course?.level ?? "beginner");
  const [teacherId, setTeacherId] = useState(String(course?.teacherId ?? teachers[0]?.id ?? ""));
  const [price, setPrice] = useState(course ? yuanOf(course.priceCents) : "");
  const [listPrice, setListPrice] = useState(course ? yuanOf(course.originalPriceCents) : "");
  const [coverChar, setCoverChar] = useState(course?.coverChar ?? "");
  const [summary, setSummary] = useState(course?.summary ?? "");
  const [introduction, setIntroduction] = useState(course?.introduction ?? "");
  const [priceError, setPriceError] = useState<string | null>(null);
  const action = useMutation();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const submit = () => {
    const body = {
      title,
      subtitle,
      category,
      kind,
      level,
      teacherId: Number(teacherId),
      priceCents: centsOf(price),
      originalPriceCents: centsOf(listPrice || price),
      coverChar,
      summary,
      introduction,
    };
    if (Number.isNaN(body.priceCents) || Number.isNaN(body.originalPriceCents)) {
      setPriceError("请填写正确的价格（元，最多两位小数）");
      return;
    }
    setPriceError(null);
    void action
      .run(
        () =>
          course
            ? browserApi(`/api/admin/courses/${course.id}`, { method: "PATCH", body, schema: adminCourseSchema })
            : browserApi("/api/admin/courses", { method: "POST", body, schema: adminCourseSchema }),
        { done: "已保存" },
      )
      .then((saved) => {
        if (!saved) return;
        if (!course) void navigate(`/admin/courses/${saved.id}`);
        else void revalidator.revalidate();
      });
  };
  const err = (name: string) => action.errors[name];
  const teacherOptions = teachers.map((t) => ({
    value: String(t.id),
    label: `${t.name}${t.hasAccount ? "" : "（无账号）"}`,
  }));
  return (
    <form
      className="staff-form"
      aria-label="课程信息"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <InputField label="课程名称" value={title} onChange={setTitle} error={err("title")} required maxLength={60} />
      <InputField label="副标题" value={subtitle} onChange={setSubtitle} maxLength={120} />
      <SelectField label="分类" value={category} onChange={setCategory} options={CATEGORY_OPTIONS} />
      <SelectField label="类型" value={kind} onChange={setKind} options={KIND_OPTIONS} />
      <SelectField label="难度" value={level} onChange={setLevel} options={LEVEL_OPTIONS} />
      <SelectField
        label="授课老师"
        value={teacherId}
        onChange={setTeacherId}
        options={teacherOptions}
        error={err("teacherId")}
      />
      <MoneyField label="售价（元）" value={price} onChange={setPrice} error={err("priceCents")} required />
      <MoneyField
        label="划线价（元）"
        value={listPrice}
        onChange={setListPrice}
        error={err("originalPriceCents")}
        hint="不低于售价；不填则与售价相同"
      />
      <InputField
        label="封面字"
        value={coverChar}
        onChange={setCoverChar}
        error={err("coverChar")}
        hint="没有封面图片时，封面上写的一个字"
        required
        maxLength={2}
      />
      <InputField label="简介" value={summary} onChange={setSummary} wide maxLength={300} />
      <TextAreaField label="课程介绍" value={introduction} onChange={setIntroduction} rows={4} />
      <div className="staff-form__actions">
        <button type="submit" className="button button--primary" disabled={action.busy}>
          {course ? "保存课程" : "创建课程"}
        </button>
        <FormAlert
          look="staff"
          problem={priceError ? localProblem(priceError) : action.problem}
          done={priceError ? null : action.done}
        />
      </div>
    </form>
  );
}
