/**
 * Small pieces the staff pages (operators' /admin and teachers' /teach) share: labelled fields,
 * money in yuan, and the homework task form (operators and teachers both set tasks). A staff form's
 * action is `useMutation()` (client/lib/mutation.ts) and its message `<FormAlert look="staff">`.
 */
import { type ReactNode, useId, useState } from "react";
import { SCRIPTS, SCRIPT_LABELS, type Script } from "../../../shared/contracts/homework";
import type { AdminTask, TaskFields } from "../../../shared/contracts/admin-catalogue";
import "./staff.css";

export function Field({
  label,
  children,
  hint,
  error,
  wide,
}: {
  label: string;
  /** Renders the control with this id; `describedBy` names its hint and error (when shown). */
  children: (id: string, describedBy: string | undefined) => ReactNode;
  hint?: string | undefined;
  error?: string | undefined;
  wide?: boolean | undefined;
}) {
  const id = useId();
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`staff-field${wide ? " staff-field--wide" : ""}`}>
      <label htmlFor={id} className="staff-field__label">
        {label}
      </label>
      {children(id, described)}
      {hint ? (
        <small id={`${id}-hint`} className="staff-field__hint">
          {hint}
        </small>
      ) : null}
      {error ? (
        <small id={`${id}-error`} className="staff-field__error" role="alert">
          {error}
        </small>
      ) : null}
    </div>
  );
}

/** Cents as the yuan an operator types ("99.00"). */
export const yuanOf = (cents: number) => (cents / 100).toFixed(2);
/** What an operator typed in yuan, as cents (NaN when it is not an amount). */
export function centsOf(text: string): number {
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(text.trim())) return Number.NaN;
  return Math.round(Number(text.trim()) * 100);
}

export function TaskForm({
  task,
  onSave,
  onDelete,
  busy,
  label = "课时作业",
}: {
  task: AdminTask | null;
  onSave: (fields: TaskFields) => void;
  onDelete?: () => void;
  busy: boolean;
  /** The form's name; a page with one form per lesson names each after its lesson. */
  label?: string;
}) {
  const [title, setTitle] = useState(task?.title ?? "");
  const [instructions, setInstructions] = useState(task?.instructions ?? "");
  const [characters, setCharacters] = useState(task?.characters ?? "");
  const [script, setScript] = useState<Script>(task?.script ?? "kai");
  const [maxPhotos, setMaxPhotos] = useState(String(task?.maxPhotos ?? 9));
  return (
    <form
      className="staff-form staff-form--task"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        onSave({ title, instructions, characters, script, maxPhotos: Number(maxPhotos) });
      }}
    >
      <Field label="作业标题">
        {(id) => (
          <input
            id={id}
            className="form-field__control"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            required
            maxLength={60}
          />
        )}
      </Field>
      <Field label="字体">
        {(id) => (
          <select
            id={id}
            className="form-field__control"
            value={script}
            onChange={(e) => setScript(e.target.value as Script)}
          >
            {SCRIPTS.map((s) => (
              <option key={s} value={s}>
                {SCRIPT_LABELS[s]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="范字" hint="按顺序写出要临的字">
        {(id) => (
          <input
            id={id}
            className="form-field__control"
            value={characters}
            onChange={(e) => setCharacters(e.target.value)}
            maxLength={40}
          />
        )}
      </Field>
      <Field label="照片数上限">
        {(id) => (
          <select
            id={id}
            className="form-field__control"
            value={maxPhotos}
            onChange={(e) => setMaxPhotos(e.target.value)}
          >
            {[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => (
              <option key={n} value={n}>
                {n} 张
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="作业要求" wide>
        {(id) => (
          <textarea
            id={id}
            className="form-field__control"
            rows={3}
            value={instructions}
            onChange={(e) => setInstructions(e.target.value)}
            maxLength={1000}
          />
        )}
      </Field>
      <div className="staff-form__actions">
        <button type="submit" className="button button--primary button--small" disabled={busy}>
          {task ? "保存作业" : "布置作业"}
        </button>
        {task && onDelete ? (
          <button
            type="button"
            className="button button--small"
            disabled={busy || task.submissions > 0}
            onClick={onDelete}
          >
            删除作业
          </button>
        ) : null}
        {task && task.submissions > 0 ? <small>已有 {task.submissions} 位学员交了作业</small> : null}
      </div>
    </form>
  );
}
