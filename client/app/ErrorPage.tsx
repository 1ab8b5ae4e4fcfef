/**
 * The error page (spec §8). 404 shows "This page could not be found"; other errors their
 * status and message. If rendering it fails, a plain fallback says so. A failed call's own
 * texts ("ajax timeout", "ajax error 502") name what the client saw, not what the visitor should
 * read: the page says it in Chinese and keeps the text in `data-error` for monitoring.
 */
import { Component, type ErrorInfo, type ReactNode } from "react";
import { isRouteErrorResponse } from "react-router-dom";
import { Link } from "../routing/link";
import {
  AJAX_TIMEOUT_MESSAGE,
  ERROR_PAGE_FAILED,
  GO_HOME_TEXT,
  NOT_FOUND_MESSAGE,
  type NormalizedError,
  ajaxErrorMessage,
  normalizeError,
} from "../../shared/errors";
import { useRootData } from "../lib/root-data";

/** Message of the fixture whose error page deliberately fails (test fixtures only). */
export const BROKEN_ERROR_PAGE_FIXTURE = "fixture: the error page fails";

export function routeErrorOf(error: unknown): NormalizedError {
  if (isRouteErrorResponse(error)) {
    const body = error.data as { message?: unknown } | null | undefined;
    if (error.status === 404) return { statusCode: 404, message: NOT_FOUND_MESSAGE };
    const message = typeof body?.message === "string" && body.message ? body.message : error.statusText || "Error";
    return { statusCode: error.status, message };
  }
  return normalizeError(error);
}

/** What the page says for a call that failed (the spec's client texts), by status. */
function failedCallText(statusCode: number): { message: string; hint: string } {
  if (statusCode === 504 || statusCode === 408)
    return {
      message: "请求超时",
      hint: "服务器这次没能及时答复，可能是网络拥堵或服务正忙。请稍后刷新页面重试。",
    };
  if (statusCode === 429) return { message: "操作太频繁", hint: "请稍等片刻再刷新页面。" };
  if (statusCode >= 500) return { message: "服务暂时不可用", hint: "页面需要的数据暂时取不到，请稍后刷新页面重试。" };
  return { message: "页面暂时无法显示", hint: "页面需要的数据没有取到，请返回首页或稍后再试。" };
}

const isFailedCallText = (error: NormalizedError) =>
  error.message === AJAX_TIMEOUT_MESSAGE || error.message === ajaxErrorMessage(error.statusCode);

/** What the error page shows: the status, a message, a hint, and the spec's text behind a failed call. */
export function errorPageText(error: unknown): { statusCode: number; message: string; hint: string; call?: string } {
  const normalized = routeErrorOf(error);
  const { statusCode, message } = normalized;
  if (statusCode !== 404 && isFailedCallText(normalized))
    return { statusCode, ...failedCallText(statusCode), call: message };
  const hint = statusCode === 404 ? "您访问的页面不存在或已被移除。" : "页面出了点问题，请稍后再试。";
  return { statusCode, message, hint };
}

export function errorTitle(error: unknown): string {
  return errorPageText(error).message;
}

function ErrorContent({ error }: { error: unknown }) {
  const { fixtures } = useRootData();
  const { statusCode, message, hint, call } = errorPageText(error);
  if (fixtures && message === BROKEN_ERROR_PAGE_FIXTURE) throw new Error(BROKEN_ERROR_PAGE_FIXTURE);
  return (
    <section className="error-page" data-status={statusCode} data-error={call}>
      <div className="seal seal--xl error-page__seal" aria-hidden="true">
        {statusCode === 404 ? "迷" : "误"}
      </div>
      <h1 className="error-page__status">{statusCode}</h1>
      <p className="error-page__message">{message}</p>
      <p className="error-page__hint">{hint}</p>
      <Link className="button button--primary" to="/">
        {GO_HOME_TEXT}
      </Link>
    </section>
  );
}

export function ErrorPageFallback({ details }: { details?: string }) {
  return (
    <section className="error-page" data-status="error-page-failed">
      <h2>{ERROR_PAGE_FAILED}</h2>
      <p>显示错误页时又发生了错误。</p>
      {details ? <p className="error-page__details">Error details: {details}</p> : null}
      <a className="button button--primary" href="/">
        {GO_HOME_TEXT}
      </a>
    </section>
  );
}

interface GuardState {
  failed: Error | null;
}

/** Catches a failure of the error page itself (in the browser; the server has its own fallback). */
class ErrorPageGuard extends Component<{ children: ReactNode }, GuardState> {
  override state: GuardState = { failed: null };
  static getDerivedStateFromError(failed: Error): GuardState {
    return { failed };
  }
  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.warn("error page failed", error.message, info.componentStack?.split("\n")[1]?.trim());
  }
  override render() {
    if (this.state.failed) return <ErrorPageFallback details={this.state.failed.message} />;
    return this.props.children;
  }
}

export function ErrorPage({ error }: { error: unknown }) {
  return (
    <ErrorPageGuard>
      <ErrorContent error={error} />
    </ErrorPageGuard>
  );
}
