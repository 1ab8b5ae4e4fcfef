/**
 * The one alert of a write (decision 078): a failed call, said once to screen readers (role alert),
 * or what a finished one did (role status). A module of its own: most pages show only this, and
 * need none of the fields' code.
 * - `look="form"`: above a form's submit button (the login panels, the account and order forms);
 * - `look="field"`: under a staff dialog's fields, naming the fields the API refused;
 * - `look="staff"`: the message line of a staff editor;
 * - `look="desk"`: under the operator's account desk.
 */
import type { Problem } from "../../lib/problem";

const LOOKS = {
  form: { error: "login-alert", done: "login-alert" },
  field: { error: "form-field__error", done: "form-field__hint" },
  staff: { error: "staff-message staff-message--error", done: "staff-message" },
  desk: { error: "desk-alert", done: "desk-done" },
} as const;

export function FormAlert({
  problem,
  done = null,
  look = "form",
  listFields = false,
}: {
  problem: Problem | null;
  /** What a success did ("已保存"), said politely (role status). */
  done?: string | null;
  look?: keyof typeof LOOKS;
  /** Appends the fields' own messages ("：…；…") when the form shows them nowhere else. */
  listFields?: boolean;
}) {
  if (problem) {
    const fields = listFields ? Object.values(problem.fields) : [];
    return (
      <p className={LOOKS[look].error} role="alert">
        {problem.message}
        {fields.length ? `：${fields.join("；")}` : ""}
      </p>
    );
  }
  if (done)
    return (
      <p className={LOOKS[look].done} role="status">
        {done}
      </p>
    );
  return null;
}
