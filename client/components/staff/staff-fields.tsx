/**
 * The labelled controls of the staff forms: a text input, a text area and a select, each with its
 * hint and its error (the API's or the form's own check) tied to the control for screen readers.
 */
import type { InputHTMLAttributes, TextareaHTMLAttributes } from "react";
import { Field } from "./staff-kit";

interface Common {
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  wide?: boolean | undefined;
  value: string;
  onChange: (value: string) => void;
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "value" | "onChange" | "className">;
type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "value" | "onChange" | "className">;

export function InputField({ label, hint, error, wide, value, onChange, ...input }: Common & InputProps) {
  return (
    <Field label={label} hint={hint} error={error} wide={wide}>
      {(id, describedBy) => (
        <input
          {...input}
          id={id}
          className="form-field__control"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      )}
    </Field>
  );
}

/** An amount in yuan (the form turns it into cents with `centsOf`). */
export function MoneyField(props: Common & InputProps) {
  return <InputField inputMode="decimal" placeholder="0.00" {...props} />;
}

export function TextAreaField({ label, hint, error, wide = true, value, onChange, ...area }: Common & TextAreaProps) {
  return (
    <Field label={label} hint={hint} error={error} wide={wide}>
      {(id, describedBy) => (
        <textarea
          {...area}
          id={id}
          className="form-field__control"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      )}
    </Field>
  );
}

export function SelectField<V extends string>({
  label,
  hint,
  error,
  wide,
  value,
  onChange,
  options,
}: Omit<Common, "value" | "onChange"> & {
  value: V;
  onChange: (value: V) => void;
  options: ReadonlyArray<{ value: V; label: string }>;
}) {
  return (
    <Field label={label} hint={hint} error={error} wide={wide}>
      {(id, describedBy) => (
        <select
          id={id}
          className="form-field__control"
          value={value}
          onChange={(e) => onChange(e.target.value as V)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        >
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** @deprecated Import it from client/lib/mutation.ts. */
export { fieldErrorsOf } from "../../lib/mutation";
