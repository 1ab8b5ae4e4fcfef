import { useSyncExternalStore } from "react";
import { type ProgressState, progressBar } from "./progress";

const idle: ProgressState = { percent: 0, show: false, failed: false };

export function ProgressBar() {
  const state = useSyncExternalStore(
    progressBar.subscribe,
    () => progressBar.snapshot,
    () => idle,
  );
  return (
    <div
      className={`nav-progress${state.failed ? " nav-progress--failed" : ""}`}
      role="progressbar"
      aria-hidden={!state.show}
      aria-valuenow={state.percent}
      data-show={state.show ? "true" : "false"}
      style={{ width: `${state.percent}%`, opacity: state.show ? 1 : 0 }}
    />
  );
}
