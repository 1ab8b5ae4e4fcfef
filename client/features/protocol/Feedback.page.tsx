/**
 * 意见反馈: the feedback form, checked here and again by the API (POST /api/feedback), which
 * stores it for the operators' inbox. Signed in, a reply comes back as a notice; otherwise the
 * contact given is how we answer.
 */
import { type FormEvent, useId, useRef, useState } from "react";
import { FEEDBACK_CATEGORIES, feedbackResultSchema } from "../../../shared/contracts/feedback";
import { Page } from "../../components/Page";
import { FormAlert } from "../../components/form/FormAlert";
import { useMutation } from "../../lib/mutation";

const CONTENT_MAX = 500;
const CONTENT_MIN = 5;

const categories = FEEDBACK_CATEGORIES;

type Field = "category" | "content" | "contact";
type Errors = Partial<Record<Field, string>>;

interface FeedbackValues {
  category: string;
  content: string;
  contact: string;
}

const PHONE = /^1\d{10}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function validateFeedback(values: FeedbackValues): Errors {
  const errors: Errors = {};
  if (!categories.some((c) => c.value === values.category)) errors.category = "请选择反馈类型";
  const content = values.content.trim();
  if (!content) errors.content = "请填写反馈内容";
  else if (content.length < CONTENT_MIN) errors.content = `请再多写几句，至少 ${CONTENT_MIN} 个字`;
  else if (values.content.length > CONTENT_MAX) errors.content = `反馈内容最多 ${CONTENT_MAX} 字`;
  const contact = values.contact.trim();
  if (contact && !PHONE.test(contact.replace(/[\s-]/g, "")) && !EMAIL.test(contact)) {
    errors.contact = "请填写 11 位手机号或有效的电子邮箱，也可以留空";
  }
  return errors;
}

export default function FeedbackPage() {
  const id = useId();
  const [values, setValues] = useState<FeedbackValues>({ category: "", content: "", contact: "" });
  const [errors, setErrors] = useState<Errors>({});
  const [sent, setSent] = useState<string | null>(null);
  const { busy, problem, setProblem, send } = useMutation();
  const refs = {
    category: useRef<HTMLSelectElement>(null),
    content: useRef<HTMLTextAreaElement>(null),
    contact: useRef<HTMLInputElement>(null),
  };

  const update = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    // Once a field was flagged, re-check it as the learner types so the message goes away.
    if (errors[field]) setErrors((e) => ({ ...e, [field]: validateFeedback({ ...values, [field]: value })[field] }));
    setSent(null);
    setProblem(null);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateFeedback(values);
    setErrors(found);
    const first = (["category", "content", "contact"] as const).find((f) => found[f]);
    if (first) {
      setSent(null);
      refs[first].current?.focus();
      return;
    }
    await send("/api/feedback", {
      body: { category: values.category, content: values.content.trim(), contact: values.contact.trim() },
      schema: feedbackResultSchema,
      onSuccess: (result) => {
        setSent(result.message);
        setValues({ category: "", content: "", contact: "" });
      },
      onFailure: (p) => {
        const fields = p.fields as Errors;
        if (Object.keys(fields).length) setErrors(fields);
      },
    });
  };

  const length = values.content.length;
  const fieldId = (f: Field) => `${id}-${f}`;
  const describedBy = (f: Field, ...extra: string[]) =>
    [errors[f] ? `${fieldId(f)}-error` : "", ...extra].filter(Boolean).join(" ") || undefined;

  return (
    <Page lead="哪里不好用、哪里讲得不清楚、希望增加什么课程，都可以告诉我们。">
      <form className="form" noValidate onSubmit={onSubmit} aria-describedby={`${id}-intro`}>
        <p id={`${id}-intro`} className="section-lead">
          带 * 的为必填项。如果希望我们回复，请留下手机号或邮箱。
        </p>

        <div className="form-field">
          <label className="form-field__label" htmlFor={fieldId("category")}>
            反馈类型 *
          </label>
          <select
            ref={refs.category}
            id={fieldId("category")}
            name="category"
            className="form-field__control"
            value={values.category}
            required
            aria-invalid={errors.category ? true : undefined}
            aria-describedby={describedBy("category")}
            onChange={(e) => update("category", e.target.value)}
          >
            <option value="" disabled>
              请选择
            </option>
            {categories.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
          {errors.category ? (
            <p className="form-field__error" id={`${fieldId("category")}-error`}>
              {errors.category}
            </p>
          ) : null}
        </div>

        <div className="form-field">
          <label className="form-field__label" htmlFor={fieldId("content")}>
            反馈内容 *
          </label>
          <textarea
            ref={refs.content}
            id={fieldId("content")}
            name="content"
            className="form-field__control"
            value={values.content}
            maxLength={CONTENT_MAX}
            rows={8}
            required
            placeholder="请尽量具体地描述：在哪个页面、做了什么、看到了什么。"
            aria-invalid={errors.content ? true : undefined}
            aria-describedby={describedBy("content", `${fieldId("content")}-counter`)}
            onChange={(e) => update("content", e.target.value)}
          />
          <div className="form-field__meta">
            {errors.content ? (
              <p className="form-field__error" id={`${fieldId("content")}-error`}>
                {errors.content}
              </p>
            ) : null}
            <span
              id={`${fieldId("content")}-counter`}
              className={`form-field__counter${length >= CONTENT_MAX ? " form-field__counter--over" : ""}`}
            >
              {length} / {CONTENT_MAX}
            </span>
          </div>
        </div>

        <div className="form-field">
          <label className="form-field__label" htmlFor={fieldId("contact")}>
            联系方式<span className="form-field__optional">选填</span>
          </label>
          <input
            ref={refs.contact}
            id={fieldId("contact")}
            name="contact"
            type="text"
            className="form-field__control"
            value={values.contact}
            maxLength={100}
            placeholder="手机号或电子邮箱"
            aria-invalid={errors.contact ? true : undefined}
            aria-describedby={describedBy("contact")}
            onChange={(e) => update("contact", e.target.value)}
          />
          {errors.contact ? (
            <p className="form-field__error" id={`${fieldId("contact")}-error`}>
              {errors.contact}
            </p>
          ) : null}
        </div>

        <div role="status" aria-live="polite">
          {sent ? (
            <div className="notice">
              <p className="notice__title">{sent}</p>
              <p>登录时提交的反馈，回复会出现在“消息通知”中；未登录时我们会通过你留下的联系方式回复。</p>
            </div>
          ) : null}
          <FormAlert look="field" problem={problem} />
        </div>

        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? "提交中…" : "提交反馈"}
          </button>
        </div>
      </form>
    </Page>
  );
}
