/**
 * The console's step-up guard as every write sees it (client/lib/mutation.ts): a module of its
 * own, so pages outside the console carry the guard's default (calls simply run) and not the
 * provider with its dialog (StepUp.tsx).
 */
import { createContext, useContext } from "react";
import { AjaxError } from "../../../shared/ajax";

/** Runs an API call; a refusal for want of a step-up asks for one and tries the call again, once. */
export type StepUpGuard = <T>(call: () => Promise<T>) => Promise<T>;

export const StepUpContext = createContext<StepUpGuard>((call) => call());

/** The guard of the console around this component (outside it, calls simply run). */
export function useStepUp(): StepUpGuard {
  return useContext(StepUpContext);
}

export function needsStepUp(err: unknown): boolean {
  if (!(err instanceof AjaxError) || err.statusCode !== 403) return false;
  const body = err.body as { error?: { code?: unknown } } | null;
  return body?.error?.code === "step_up_required";
}
