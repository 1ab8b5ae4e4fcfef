/**
 * 体验课: what the free trial class is and who it is for, and the sign-up form. The form checks
 * itself with the API's own schema; whatever the API answers (a duplicate, too many tries, a
 * lost connection) is said in place and nothing typed is lost. Signed-in learners find their
 * name and phone filled in.
 */
import { type FormEvent, type ReactNode, useId, useRef, useState } from "react";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { courseCategories, courseCategoryName } from "../../../shared/catalogue";
import { AjaxError } from "../../../shared/ajax";
import {
  TRIAL_NAME_MAX,
  type TrialPrefill,
  type TrialSignupResult,
  trialGrades,
  type trialSignupSchema,
} from "../../../shared/contracts/activities";
import { Page } from "../../components/Page";
import { browserApi } from "../../lib/api";
import type { PageLoaderArgs } from "../../routing/nav-context";
import "./experience.css";
import "@fontsource/ma-shan-zheng/400.css";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const activitiesContract = () => import("../../../shared/contracts/activities");

export async function loader({ env, signal }: PageLoaderArgs) {
  let prefill: TrialPrefill | null = null;
  if (env.viewer) {
    // Only a convenience: without it the form is simply empty.
    prefill = await env
      .api("/api/activities/experience/me", { signal, schema: activitiesContract().then((m) => m.trialPrefillSchema) })
      .catch(() => null);
  }
  return {
    prefill,
    meta: {
      title: "体验课",
      description:
        "免费预约一节 30 分钟的书法、硬笔或写作体验课：老师看你写几个字，示范执笔与基本笔画，课后给出书写评估和学习建议。",
    },
  };
}

type Field = "name" | "phone" | "category" | "grade";
type Errors = Partial<Record<Field, string>>;
interface Values {
  name: string;
  phone: string;
  category: string;
  grade: string;
}
const FIELDS: Field[] = ["name", "phone", "category", "grade"];

function errorsOf(issues: ReadonlyArray<{ path: PropertyKey[] | string; message: string }>): Errors {
  const errors: Errors = {};
  for (const issue of issues) {
    const path = Array.isArray(issue.path) ? String(issue.path[0] ?? "") : issue.path.split(".")[0];
    const field = FIELDS.find((f) => f === path);
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

const steps = [
  { title: "提交报名", text: "留下称呼和手机号，选一门想体验的课程，一分钟就够。" },
  { title: "老师来电", text: "一个工作日内，老师打电话了解你的基础、目标和方便的时间。" },
  { title: "线上体验 30 分钟", text: "老师示范执笔和基本笔画，你跟着写几个字，老师当场指出问题。" },
  { title: "拿到学习建议", text: "课后收到书写评估和建议的学习路线，报不报正式课由你决定。" },
];

const audiences = [
  { glyph: "初", title: "零基础的成年人", text: "想写一手好字却不知从哪开始：从执笔和坐姿讲起，不怕基础差。" },
  { glyph: "童", title: "中小学生", text: "握笔姿势不对、字写得歪扭、卷面不整洁：先找准问题，再对症练习。" },
  { glyph: "进", title: "有基础的爱好者", text: "临过帖却总觉得没进步：老师帮你看笔法和结构，指出下一步该练什么。" },
  { glyph: "文", title: "想写好作文的学生", text: "写作体验课从一篇日记讲起，学会把一件小事写具体、写生动。" },
];

const questions = [
  { q: "体验课收费吗？", a: "完全免费，不需要绑定任何支付方式，也不会自动开通付费课程。" },
  {
    q: "需要准备什么？",
    a: "毛笔课准备毛笔、墨汁和毛边纸（或水写布）；硬笔课准备一支常用的笔和白纸；写作课准备纸笔即可。",
  },
  { q: "可以给孩子报名吗？", a: "可以。称呼填孩子的名字，手机号填家长的，年级一栏帮助老师提前准备合适的内容。" },
  { q: "报错了怎么办？", a: "同一个手机号每门课只需报名一次。填错了信息，老师来电时告诉老师即可。" },
];

function SignupForm({ prefill }: { prefill: TrialPrefill | null }) {
  const id = useId();
  const empty: Values = { name: prefill?.name ?? "", phone: prefill?.phone ?? "", category: "", grade: "" };
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Errors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [done, setDone] = useState<TrialSignupResult | null>(null);
  const [signedUp, setSignedUp] = useState<string[]>(prefill?.signedUp ?? []);
  const signupSchema = useRef<typeof trialSignupSchema | null>(null);
  const refs = {
    name: useRef<HTMLInputElement>(null),
    phone: useRef<HTMLInputElement>(null),
    category: useRef<HTMLInputElement>(null),
    grade: useRef<HTMLSelectElement>(null),
  };

  const update = (field: Field, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    setProblem(null);
    // Once a field was flagged, re-check it as the learner types so the message goes away.
    // The contract is loaded by then: a field is flagged only after a check on sending.
    const schema = signupSchema.current;
    if (errors[field] && schema) {
      const result = schema.safeParse(next);
      setErrors((e) => ({ ...e, [field]: result.success ? undefined : errorsOf(result.error.issues)[field] }));
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sending) return;
    setProblem(null);
    const schema = (signupSchema.current ??= (await activitiesContract()).trialSignupSchema);
    const checked = schema.safeParse(values);
    if (!checked.success) {
      const found = errorsOf(checked.error.issues);
      setErrors(found);
      const first = FIELDS.find((f) => found[f]);
      if (first) refs[first].current?.focus();
      return;
    }
    setErrors({});
    setSending(true);
    try {
      const result = await browserApi("/api/activities/experience", {
        method: "POST",
        body: values,
        schema: activitiesContract().then((m) => m.trialSignupResultSchema),
      });
      setSignedUp((list) => [...list, result.category]);
      setDone(result);
    } catch (err) {
      const body = err instanceof AjaxError ? (err.body as { error?: { message?: string; details?: unknown } }) : null;
      const details = body?.error?.details;
      if (err instanceof AjaxError && err.statusCode === 400 && Array.isArray(details)) {
        setErrors(errorsOf(details as Array<{ path: string; message: string }>));
      }
      if (err instanceof AjaxError && err.statusCode === 409) {
        setSignedUp((list) => [...list, values.category]);
      }
      setProblem(body?.error?.message ?? "网络好像不太顺畅，报名没有提交成功，请稍后再试。");
    } finally {
      setSending(false);
    }
  };

  if (done) {
    return (
      <div className="trial-done" role="status">
        <div className="seal trial-done__seal" aria-hidden="true">
          成
        </div>
        <h2 className="trial-done__title">报名成功</h2>
        <p>
          {done.name}，我们已收到您的<strong>{done.categoryName}</strong>体验课报名。
        </p>
        <p>老师会在一个工作日内致电 {done.maskedPhone}，和您约定上课时间，请留意来电。</p>
        <div className="trial-done__actions">
          <button
            type="button"
            className="button"
            onClick={() => {
              setDone(null);
              setValues((v) => ({ ...v, category: "", grade: "" }));
            }}
          >
            再报名一门课
          </button>
          <Link className="button button--primary" to={`/product/list?category=${done.category}`}>
            先看看{done.categoryName}课程
          </Link>
        </div>
      </div>
    );
  }

  const fieldId = (f: Field) => `${id}-${f}`;
  const errorId = (f: Field) => `${id}-${f}-error`;
  const invalid = (f: Field) => (errors[f] ? true : undefined);
  const describedBy = (f: Field) => (errors[f] ? errorId(f) : undefined);
  const already = values.category && signedUp.includes(values.category) ? courseCategoryName(values.category) : null;

  return (
    <form className="trial-form" noValidate onSubmit={(e) => void onSubmit(e)} aria-labelledby={`${id}-title`}>
      <h2 className="trial-form__title" id={`${id}-title`}>
        免费报名
      </h2>
      <p className="trial-form__lead">带 * 的为必填项，老师会按这里的手机号联系您。</p>

      <TrialField id={fieldId("name")} label="称呼 *" error={errors.name}>
        <input
          ref={refs.name}
          id={fieldId("name")}
          name="name"
          className="form-field__control"
          value={values.name}
          maxLength={TRIAL_NAME_MAX + 10}
          autoComplete="name"
          placeholder="例如：王同学、李女士"
          aria-invalid={invalid("name")}
          aria-describedby={describedBy("name")}
          onChange={(e) => update("name", e.target.value)}
        />
      </TrialField>

      <TrialField id={fieldId("phone")} label="手机号 *" error={errors.phone}>
        <input
          ref={refs.phone}
          id={fieldId("phone")}
          name="phone"
          className="form-field__control"
          type="tel"
          inputMode="numeric"
          autoComplete="tel"
          value={values.phone}
          maxLength={20}
          placeholder="11 位中国大陆手机号"
          aria-invalid={invalid("phone")}
          aria-describedby={describedBy("phone")}
          onChange={(e) => update("phone", e.target.value)}
        />
      </TrialField>

      <fieldset
        className="form-field trial-form__choices"
        aria-invalid={invalid("category")}
        aria-describedby={describedBy("category")}
      >
        <legend className="form-field__label">想体验的课程 *</legend>
        <div className="trial-form__chips">
          {courseCategories.map((c, i) => (
            <label key={c.key} className={`trial-chip${values.category === c.key ? " is-checked" : ""}`}>
              <input
                ref={i === 0 ? refs.category : undefined}
                type="radio"
                name="category"
                value={c.key}
                checked={values.category === c.key}
                onChange={() => update("category", c.key)}
              />
              {c.name}
            </label>
          ))}
        </div>
        {errors.category ? (
          <p className="form-field__error" id={errorId("category")}>
            {errors.category}
          </p>
        ) : already && !problem ? (
          <p className="trial-form__hint">您已报名过{already}体验课，老师会尽快与您联系。</p>
        ) : null}
      </fieldset>

      <TrialField id={fieldId("grade")} label="年级或年龄段" optional error={errors.grade}>
        <select
          ref={refs.grade}
          id={fieldId("grade")}
          name="grade"
          className="form-field__control"
          value={values.grade}
          aria-invalid={invalid("grade")}
          aria-describedby={describedBy("grade")}
          onChange={(e) => update("grade", e.target.value)}
        >
          <option value="">不填</option>
          {trialGrades.map((g) => (
            <option key={g.key} value={g.key}>
              {g.name}
            </option>
          ))}
        </select>
      </TrialField>

      {problem ? (
        <p className="notice notice--warning trial-form__problem" role="alert">
          {problem}
        </p>
      ) : null}

      <button type="submit" className="button button--primary trial-form__submit" disabled={sending}>
        {sending ? "正在提交…" : "免费报名"}
      </button>
      <p className="trial-form__privacy">
        提交即表示同意老师通过电话联系您安排体验课。手机号只用于这次联系，详见
        <Link to="/protocol/privacy">隐私政策</Link>。
      </p>
    </form>
  );
}

/** A labelled control of the form, with its error under it (`<id>-error`, for aria-describedby). */
function TrialField({
  id,
  label,
  optional,
  error,
  children,
}: {
  id: string;
  label: string;
  optional?: boolean;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="form-field">
      <label className="form-field__label" htmlFor={id}>
        {label}
        {optional ? <span className="form-field__optional">选填</span> : null}
      </label>
      {children}
      {error ? (
        <p className="form-field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export default function ExperiencePage() {
  const { prefill } = useLoaderData<typeof loader>();
  return (
    <Page
      title="免费体验课"
      className="page--experience"
      lead="第一次学书法、硬笔或写作？先免费上一节 30 分钟的体验课：老师看你写几个字，告诉你从哪里开始。"
    >
      <div className="trial-layout">
        <div className="trial-layout__main">
          <section aria-labelledby="trial-steps">
            <h2 className="section-title" id="trial-steps">
              体验课怎么上
            </h2>
            <ol className="trial-steps">
              {steps.map((step, i) => (
                <li key={step.title}>
                  <span className="trial-steps__number" aria-hidden="true">
                    {"一二三四"[i]}
                  </span>
                  <h3>{step.title}</h3>
                  <p>{step.text}</p>
                </li>
              ))}
            </ol>
          </section>

          <section aria-labelledby="trial-audience">
            <h2 className="section-title" id="trial-audience">
              适合谁
            </h2>
            <ul className="trial-audience">
              {audiences.map((a) => (
                <li key={a.title}>
                  <span className="trial-audience__glyph" aria-hidden="true">
                    {a.glyph}
                  </span>
                  <div>
                    <h3>{a.title}</h3>
                    <p>{a.text}</p>
                  </div>
                </li>
              ))}
            </ul>
          </section>

          <section aria-labelledby="trial-faq">
            <h2 className="section-title" id="trial-faq">
              常见问题
            </h2>
            <dl className="trial-faq">
              {questions.map((item) => (
                <div key={item.q}>
                  <dt>{item.q}</dt>
                  <dd>{item.a}</dd>
                </div>
              ))}
            </dl>
          </section>
        </div>
        <aside className="trial-layout__form" aria-label="报名体验课">
          <SignupForm prefill={prefill} />
        </aside>
      </div>
    </Page>
  );
}
