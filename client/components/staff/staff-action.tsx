/**
 * What staff pages with actions share: the loader's forwarding of the URL's table state to the
 * API, and a small dialog form (its action is `useMutation({ after: useRevalidator().revalidate })`).
 */
import type { FormEvent, ReactNode } from "react";
import { listQuery } from "../table/list-query";
import { Modal } from "../../lib/modal";
import type { Problem } from "../../lib/problem";
import { FormAlert } from "../form/FormAlert";
import "./staff-forms.css";

/** The API query for a staff table: the URL's own parameters, only the ones the page knows. */
export function apiQuery(request: Request, keys: readonly string[]): string {
  return listQuery(request, ["page", "pageSize", "sort", "dir", "q", ...keys]);
}

/** A dialog with a form: submit runs `onSubmit`; it closes itself when that says so. */
export function DialogForm({
  open,
  title,
  onClose,
  onSubmit,
  busy,
  problem,
  submitLabel,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  onSubmit: (form: FormData) => Promise<boolean>;
  busy: boolean;
  problem: Problem | null;
  submitLabel: string;
  children: ReactNode;
}) {
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (await onSubmit(new FormData(event.currentTarget))) onClose();
  }
  return (
    <Modal open={open} onClose={onClose} title={title} className="admin-dialog">
      <form className="form admin-form" onSubmit={(e) => void submit(e)} noValidate>
        {children}
        <FormAlert problem={problem} look="field" listFields />
        <div className="form__actions">
          <button type="button" className="button" onClick={onClose}>
            取消
          </button>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? "提交中…" : submitLabel}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** A labelled input of an admin form. */
export function Field({
  label,
  name,
  defaultValue,
  type = "text",
  placeholder,
  required,
}: {
  label: string;
  name: string;
  defaultValue?: string | number | null;
  type?: string;
  placeholder?: string;
  required?: boolean;
}) {
  return (
    <label className="form-field admin-field">
      <span className="form-field__label">
        {label}
        {required ? " *" : ""}
      </span>
      <input
        className="form-field__control"
        name={name}
        type={type}
        defaultValue={defaultValue ?? ""}
        placeholder={placeholder}
      />
    </label>
  );
}

export const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();
/** A number field as a number (NaN stays NaN, so the API's check names the field). */
export const num = (form: FormData, name: string) => (text(form, name) === "" ? null : Number(text(form, name)));
