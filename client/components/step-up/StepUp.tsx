/**
 * Step-up in the operators' console (decision 072): an action the API refuses with 403
 * `step_up_required` (a refund, a role change, disabling an account…) opens a dialog asking for
 * the login password or the app's code; once the API has stamped the session, the action is
 * sent once more. Cancelled, the action fails with the API's own refusal.
 */
import { type ReactNode, useCallback, useRef, useState } from "react";
import { lazyDialog } from "../../lib/lazy-dialog";
import { needsStepUp, StepUpContext, type StepUpGuard } from "./step-up-context";

const prompt = lazyDialog(() => import("./StepUpDialog").then((m) => m.StepUpDialog));

export function StepUpProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const answer = useRef<((proved: boolean) => void) | null>(null);

  const ask = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        answer.current?.(false);
        answer.current = resolve;
        setOpen(true);
      }),
    [],
  );
  const settle = (proved: boolean) => {
    setOpen(false);
    answer.current?.(proved);
    answer.current = null;
  };

  const guard = useCallback<StepUpGuard>(
    async (call) => {
      try {
        return await call();
      } catch (err) {
        if (!needsStepUp(err) || !(await ask())) throw err;
        return call();
      }
    },
    [ask],
  );

  return (
    <StepUpContext value={guard}>
      {children}
      <prompt.Dialog open={open} onProved={() => settle(true)} onClose={() => settle(false)} />
    </StepUpContext>
  );
}
