/**
 * The goods editor: 新建图书 and 新建文房 are one form drawn from a short description of the kind
 * (its fields, how they become the API's body, where it is sent), and the editors' "fields,
 * 保存, 上架/下架" form is one `GoodsPatchForm`. The cover picker, the on-sale choice and the notice
 * after creation are in ./goods-form.
 */
import { type ReactNode, useState } from "react";
import { useNavigate, useRevalidator } from "react-router-dom";
import type { z } from "zod";
import { Link } from "../../../routing/link";
import { PUBLISH_STATE_LABELS, type PUBLISH_STATES } from "../../../../shared/contracts/admin-catalogue";
import { Page } from "../../../components/Page";
import { InputField, MoneyField, TextAreaField, fieldErrorsOf } from "../../../components/staff/staff-fields";
import { FormAlert } from "../../../components/form/FormAlert";
import { useMutation } from "../../../lib/mutation";
import { browserApi } from "../../../lib/api";
import { CoverPicker, type CreatedState, OnSaleChoice, coverFileProblem, sendCover } from "./goods-form";
import "./catalogue.css";

/** One field of a goods form; `name` is the key of the API's body whose refusal shows under it. */
export interface GoodsField {
  name: string;
  label: string;
  /**
   * text (the default); money: yuan on a new form (with the 0.00 placeholder); decimal: yuan on an
   * editor; numeric: a whole number; area: several lines.
   */
  type?: "text" | "money" | "decimal" | "numeric" | "area";
  hint?: string;
  required?: boolean;
  maxLength?: number;
  rows?: number;
  wide?: boolean;
  /** What the field holds before the operator types (new forms: "" unless said). */
  initial?: string;
}

/** Where the new form shows the cover picker and the on-sale choice among its fields. */
export type GoodsSlot = GoodsField | "cover" | "onSale";

type GoodsValues = Record<string, string>;
/** What the operator typed in a field, by its name ("" when untouched). */
export type Typed = (name: string) => string;

/** A kind of goods as the 新建 page knows it. */
export interface GoodsKind {
  /** The id prefix of the page's heading ("book" → book-new-title). */
  key: string;
  title: string;
  /** The list page and its link text. */
  list: { to: string; label: string };
  /** The form's name and heading ("图书信息"). */
  label: string;
  submitLabel: string;
  slots: readonly GoodsSlot[];
  coverHint: string;
  /** The API's create endpoint; the cover goes to `${endpoint}/:id/cover`, the editor is `${list.to}/:id`. */
  endpoint: string;
  /** The API's body from what was typed (without status). */
  body: (typed: Typed) => Record<string, unknown>;
  /** The API's own contract, checked before anything is sent. */
  check: z.ZodType;
  created: z.ZodType<{ id: number }>;
}

function GoodsInput({
  field,
  value,
  onChange,
  error,
}: {
  field: GoodsField;
  value: string;
  onChange: (v: string) => void;
  error: string | undefined;
}) {
  const common = { label: field.label, value, onChange, error, hint: field.hint, maxLength: field.maxLength };
  if (field.type === "area") return <TextAreaField {...common} rows={field.rows} wide={field.wide} />;
  if (field.type === "money") return <MoneyField {...common} required={field.required} />;
  return (
    <InputField
      {...common}
      wide={field.wide}
      required={field.required}
      inputMode={field.type === "numeric" ? "numeric" : field.type === "decimal" ? "decimal" : undefined}
    />
  );
}

/** The 新建 form of a kind; `extra` adds parts of its own (文房's variants) with their share of the body. */
export function GoodsCreateForm({
  kind,
  extra,
}: {
  kind: GoodsKind;
  extra?: { body: Record<string, unknown>; render: (err: (name: string) => string | undefined) => ReactNode };
}) {
  const fields = kind.slots.filter((slot): slot is GoodsField => typeof slot === "object");
  const [values, setValues] = useState<GoodsValues>(() =>
    Object.fromEntries(fields.map((f) => [f.name, f.initial ?? ""])),
  );
  const [onSale, setOnSale] = useState(false);
  const [cover, setCover] = useState<File | null>(null);
  const action = useMutation();
  const navigate = useNavigate();
  const submit = () => {
    const body = {
      ...kind.body((name) => values[name] ?? ""),
      status: onSale ? ("published" as const) : ("draft" as const),
      ...extra?.body,
    };
    const checked = kind.check.safeParse(body);
    const coverProblem = coverFileProblem(cover);
    if (!checked.success || coverProblem) {
      const fieldErrors = checked.success ? {} : fieldErrorsOf(checked.error.issues);
      action.refuse(coverProblem ? { ...fieldErrors, cover: coverProblem } : fieldErrors);
      return;
    }
    void action
      .run(async () => {
        const item = await browserApi(kind.endpoint, { method: "POST", body, schema: kind.created });
        const notice = await sendCover(`${kind.endpoint}/${item.id}/cover`, cover);
        return { id: item.id, notice };
      })
      .then((created) => {
        if (!created) return;
        const state: CreatedState = { notice: created.notice };
        void navigate(`${kind.list.to}/${created.id}`, { state });
      });
  };
  const err = (name: string) => action.errors[name];
  return (
    <form
      className="staff-form"
      aria-label={kind.label}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {kind.slots.map((slot) =>
        slot === "cover" ? (
          <CoverPicker key="cover" error={err("cover")} hint={kind.coverHint} onPick={setCover} />
        ) : slot === "onSale" ? (
          <OnSaleChoice key="onSale" checked={onSale} onChange={setOnSale} error={err("status")} />
        ) : (
          <GoodsInput
            key={slot.name}
            field={slot}
            value={values[slot.name] ?? ""}
            onChange={(value) => setValues((before) => ({ ...before, [slot.name]: value }))}
            error={err(slot.name)}
          />
        ),
      )}
      {extra?.render(err)}
      <div className="staff-form__actions">
        <button type="submit" className="button button--primary" disabled={action.busy}>
          {action.busy ? "正在创建…" : kind.submitLabel}
        </button>
        <FormAlert look="staff" problem={action.problem} done={action.done} />
      </div>
    </form>
  );
}

/** The 新建 page of a kind: the form in its card, under a link back to the list. */
export function GoodsNewPage({ kind, children }: { kind: GoodsKind; children: ReactNode }) {
  return (
    <Page title={kind.title} lead={<Link to={kind.list.to}>{kind.list.label}</Link>} className="catalogue-edit">
      <section className="card staff-panel" aria-labelledby={`${kind.key}-new-title`}>
        <h2 id={`${kind.key}-new-title`}>{kind.label}</h2>
        {children}
      </section>
    </Page>
  );
}

/**
 * An editor's form of an item's own fields, saved with PATCH, beside its state and the 上架/下架
 * button (which PATCHes the status alone). The page's data is read again after each.
 */
export function GoodsPatchForm({
  label,
  endpoint,
  status,
  fields,
  body,
  saveLabel,
  savedText,
}: {
  label: string;
  endpoint: string;
  status: (typeof PUBLISH_STATES)[number];
  /** The fields with their current values as `initial`. */
  fields: readonly GoodsField[];
  body: (typed: Typed) => Record<string, unknown>;
  saveLabel: string;
  savedText: string;
}) {
  const [values, setValues] = useState<GoodsValues>(() =>
    Object.fromEntries(fields.map((f) => [f.name, f.initial ?? ""])),
  );
  const action = useMutation();
  const revalidator = useRevalidator();
  const published = status === "published";
  const patch = (patchBody: Record<string, unknown>, done: string) =>
    void action
      .run(() => browserApi(endpoint, { method: "PATCH", body: patchBody }), { done })
      .then(() => revalidator.revalidate());
  return (
    <form
      className="staff-form"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        patch(
          body((name) => values[name] ?? ""),
          savedText,
        );
      }}
    >
      {fields.map((field) => (
        <GoodsInput
          key={field.name}
          field={field}
          value={values[field.name] ?? ""}
          onChange={(value) => setValues((before) => ({ ...before, [field.name]: value }))}
          error={action.errors[field.name]}
        />
      ))}
      <div className="staff-form__actions">
        <button type="submit" className="button button--small" disabled={action.busy}>
          {saveLabel}
        </button>
        <span className={`staff-badge${published ? " staff-badge--on" : ""}`}>{PUBLISH_STATE_LABELS[status]}</span>
        <button
          type="button"
          className="button button--small"
          disabled={action.busy}
          onClick={() => patch({ status: published ? "draft" : "published" }, published ? "已下架" : "已上架")}
        >
          {published ? "下架" : "上架"}
        </button>
        <FormAlert look="staff" problem={action.problem} done={action.done} />
      </div>
    </form>
  );
}
