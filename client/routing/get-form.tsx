import type { ComponentPropsWithRef, SubmitEvent } from "react";
import { useLocation, useNavigate } from "react-router-dom";

export type GetFormProps = Omit<ComponentPropsWithRef<"form">, "method" | "action"> & {
  /** The page the fields go to as a query (by default the page the form is on). */
  action?: string;
};

/** The query a GET form sends: its fields (files aside) and the button that sent it, in order. */
export function queryOf(form: HTMLFormElement, submitter: HTMLElement | null): string {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form, submitter)) if (typeof value === "string") params.append(name, value);
  return params.toString();
}

/**
 * A search or filter form: without JavaScript the browser sends it as `GET action?fields`; with it,
 * the same address is a client navigation (its loader runs, the page stays). The router's own
 * `<Form>` also posts, submits to actions and fetchers, which this site does not use (it talks to
 * /api itself); leaving it out keeps it out of every page's JavaScript (decision 055).
 */
export function GetForm({ action, onSubmit, ...rest }: GetFormProps) {
  const navigate = useNavigate();
  const here = useLocation().pathname;
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    onSubmit?.(event);
    if (event.defaultPrevented) return;
    event.preventDefault();
    const query = queryOf(event.currentTarget, event.submitter);
    navigate(`${action ?? here}${query ? `?${query}` : ""}`);
  };
  return <form {...rest} method="get" action={action} onSubmit={submit} />;
}
