import type { ComponentPropsWithRef, MouseEvent } from "react";
import { type To, useHref, useLinkClickHandler, useLocation, useResolvedPath } from "react-router-dom";

/** A scheme (`https:`, `mailto:`) or a protocol-relative `//host`: not a path of this site. */
const ABSOLUTE = /^(?:[a-z][a-z0-9+.-]*:|[\\/]{2})/i;

export type LinkProps = Omit<ComponentPropsWithRef<"a">, "href"> & {
  to: To;
  /** Replace the current history entry (by default: only when the link leads to where we are). */
  replace?: boolean;
  state?: unknown;
  preventScrollReset?: boolean;
};

/**
 * An absolute path the router would resolve to itself: no `//` or `\\`, no `.` or `..` segment, no
 * bare `?` or `#`. Anything else goes through the router's resolution.
 */
const PLAIN_PATH = /^(?!.*\/\/)(?!.*\/\.\.?(?:[/?#]|$))\/[^\\?#]*(?:\?[^#]+)?(?:#.+)?$/;

/** Whether `to` is another site's address (a scheme or `//host`), a plain link everywhere. */
const isOtherSite = (to: To): to is string => typeof to === "string" && ABSOLUTE.test(to);

/** Whether `to` is an address the router would use as it is (see PLAIN_PATH). */
export const isPlainPath = (to: To): to is string => typeof to === "string" && PLAIN_PATH.test(to);

/**
 * A link to a page of this site, navigated on the client (decision 055). The router's own
 * `<Link>` also carries prefetching, masks, view transitions and framework-mode discovery, which
 * this site does not use; they cost every page's entry about 10 KB (3 KB gzip) and every link a
 * few hooks more in each server render. This one is the router's documented building blocks,
 * `useHref` and `useLinkClickHandler`: the same address, the same click rules (a modified click, a
 * middle click or another `target` is left to the browser). An address with a scheme is a plain
 * link, on the server and in the browser alike.
 */
export function BrowserLink({ to, replace, state, preventScrollReset, onClick, target, children, ...rest }: LinkProps) {
  const site = !isOtherSite(to);
  // Hooks in a fixed order whatever `to` is; for another site's address their results go unused.
  const href = useHref(site ? to : "/");
  const navigate = useLinkClickHandler<HTMLAnchorElement>(to, { replace, state, target, preventScrollReset });
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (site && !event.defaultPrevented) navigate(event);
  };
  return (
    <a {...rest} href={site ? href : (to as string)} target={target} onClick={click}>
      {children}
    </a>
  );
}

/**
 * The same link drawn on the server, where nobody clicks: no click handler, and an absolute path
 * the router would leave as it is (most links) is the address without asking the router.
 */
export function ServerLink({ to, replace: _r, state: _s, preventScrollReset: _p, children, ...rest }: LinkProps) {
  if (!isPlainPath(to) && !isOtherSite(to))
    return (
      <ResolvedLink to={to} {...rest}>
        {children}
      </ResolvedLink>
    );
  return (
    <a {...rest} href={to}>
      {children}
    </a>
  );
}

function ResolvedLink({ to, children, ...rest }: LinkProps) {
  return (
    <a {...rest} href={useHref(to)}>
      {children}
    </a>
  );
}

/**
 * On the server a page renders once and is never clicked; in the browser it is hydrated and used.
 * Decided when the bundle is built, so neither bundle carries the other's link.
 */
export const Link = import.meta.env.SSR ? ServerLink : BrowserLink;

export type NavLinkProps = Omit<LinkProps, "className"> & {
  /** Active only on the address itself, not below it. */
  end?: boolean;
  className?: string | ((state: { isActive: boolean }) => string);
};

/** Whether `pathname` is `target` or (unless `end`) a page below it; letter case aside. */
export function isActivePath(pathname: string, target: string, end: boolean): boolean {
  const here = pathname.toLowerCase();
  const there = target.toLowerCase();
  if (here === there) return true;
  if (end || !here.startsWith(there)) return false;
  const slash = there !== "/" && there.endsWith("/") ? there.length - 1 : there.length;
  return here.charAt(slash) === "/";
}

/** A link in a menu: `aria-current="page"` and the active class while its page (or one below it) is open. */
export function NavLink({ end = false, className, ...rest }: NavLinkProps) {
  const target = useResolvedPath(rest.to).pathname;
  const isActive = isActivePath(useLocation().pathname, target, end);
  return (
    <Link
      {...rest}
      aria-current={isActive ? "page" : undefined}
      className={typeof className === "function" ? className({ isActive }) : className}
    />
  );
}
