/**
 * A failed call, said once to screen readers (role alert) and shown above the submit button. A
 * module of its own: most pages show only this, and need none of the fields' code.
 */
import type { Problem } from "../../lib/problem";

export function FormAlert({ problem }: { problem: Problem | null }) {
  if (!problem) return null;
  return (
    <p className="login-alert" role="alert">
      {problem.message}
    </p>
  );
}
