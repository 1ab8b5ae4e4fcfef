/**
 * 意见反馈: the feedback form with client-side validation. The feedback API does not exist yet,
 * so a valid form is not sent anywhere: the page says so and offers the service e-mail instead,
 * with the text already filled in.
 */
import { type FormEvent, useId, useRef, useState } from "react";
import { useRootData } from "../../lib/root-data";
import { Page } from "../../components/Page";

const CONTENT_MAX = 500;
const CONTENT_MIN = 5;

const categories = [
  { value: "course", label: "课程内容" },
  { value: "live", label: "直播与回放" },
  { value: "homework", label: "作业批改" },
  { value: "order", label: "订单与支付" },
  { value: "account", label: "账号与登录" },
  { value: "site", label: "网站使用" },
  { value: "other", label: "其他" },
] as const;

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

function mailtoHref(email: string, values: FeedbackValues): string {
  const label = categories.find((c) => c.value === values.category)?.label ?? "其他";
  const body = [values.content.trim(), "", values.contact.trim() ? `联系方式：${values.contact.trim()}` : ""]
    .join("\n")
    .trim();
  return `mailto:${email}?subject=${encodeURIComponent(`意见反馈：${label}`)}&body=${encodeURIComponent(body)}`;
}

export default function FeedbackPage() {
  const { serviceEmail } = useRootData();
  const id = useId();
  const [values, setValues] = useState<FeedbackValues>({ category: "", content: "", contact: "" });
  const [errors, setErrors] = useState<Errors>({});
  const [checked, setChecked] = useState<FeedbackValues | null>(null);
  const refs = {
    category: useRef<HTMLSelectElement>(null),
    content: useRef<HTMLTextAreaElement>(null),
    contact: useRef<HTMLInputElement>(null),
  };

  const update = (field: Field, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    // Once a field was flagged, re-check it as the learner types so the message goes away.
    if (errors[field]) setErrors((e) => ({ ...e, [field]: validateFeedback({ ...values, [field]: value })[field] }));
    setChecked(null);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateFeedback(values);
    setErrors(found);
    const first = (["category", "content", "contact"] as const).find((f) => found[f]);
    if (first) {
      setChecked(null);
      refs[first].current?.focus();
      return;
    }
    setChecked(values);
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
          {checked ? (
            <div className="notice notice--warning">
              <p className="notice__title">反馈提交功能即将开放，请暂时通过客服邮箱联系我们</p>
              <p>
                你填写的内容还没有发送。点击下面的邮箱地址，会打开邮件程序并自动填好这条反馈：
                <br />
                <a className="text-link" href={mailtoHref(serviceEmail, checked)}>
                  {serviceEmail}
                </a>
              </p>
            </div>
          ) : null}
        </div>

        <div className="form__actions">
          <button type="submit" className="button button--primary">
            提交反馈
          </button>
        </div>
      </form>
    </Page>
  );
}
