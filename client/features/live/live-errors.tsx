/**
 * How the live pages say something failed: the message of a failed call, and the state shown when
 * the schedule or a room did not load.
 */
import { useRevalidator } from "react-router-dom";
import { EmptyState } from "../../components/EmptyState";
import { describeProblem } from "../../lib/problem";

export const problemText = (err: unknown) => describeProblem(err).message;

/** The schedule or a room did not load: what went wrong (a timeout or not) and a way to try again. */
export function LiveLoadError({ title, status }: { title: string; status: number | null }) {
  const revalidator = useRevalidator();
  return (
    <EmptyState
      glyph="误"
      title={title}
      action={
        <button
          type="button"
          className="button"
          disabled={revalidator.state === "loading"}
          onClick={() => void revalidator.revalidate()}
        >
          {revalidator.state === "loading" ? "正在重新加载…" : "重新加载"}
        </button>
      }
    >
      <p>{status === 504 ? "请求超时了，" : "服务暂时不可用，"}请稍后再试。</p>
    </EmptyState>
  );
}
