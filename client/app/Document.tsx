/**
 * The whole HTML document, rendered by React on the server and hydrated in the browser.
 * The root route's component (pages render through <Outlet/>) and its error boundary.
 */
import type { ReactNode } from "react";
import { Outlet, useLocation, useMatches, useRouteError } from "react-router-dom";
import { SITE_DESCRIPTION } from "../../shared/constants";
import { serializeForScript } from "../../shared/serialize";
import { DefaultLayout } from "../layouts/DefaultLayout";
import { ClientPlugins } from "../lib/client-plugins";
import { OfflineBanner } from "../lib/online";
import { ProgressBar } from "../lib/progress-bar";
import { ScrollManager } from "../lib/scroll";
import { defOf } from "../../shared/routes";
import { ErrorPage, errorTitle } from "./ErrorPage";
import { BOOT_ELEMENT_ID, useDocument } from "../lib/root-data";

/** What a page loader may say about its page in `meta` (all optional). */
export interface PageMeta {
  title?: string;
  description?: string;
  /** Site-relative or absolute picture for link previews (og:image). */
  image?: string;
  /** og:type, e.g. "article", "product", "video.other"; default "website". */
  type?: string;
  /** Search (query string, e.g. "?category=kaishu&page=2") that belongs to the canonical address. */
  canonicalSearch?: string;
  /** schema.org structured data (Course, Book, Product, Event…), rendered as JSON-LD. */
  jsonLd?: Record<string, unknown> | Array<Record<string, unknown>>;
  /** Keep crawlers from indexing the page (personal or transient pages). */
  noindex?: boolean;
}

/** The deepest matched page's metadata: its loader's `meta`, else its title in the route table. */
function usePageMeta(): PageMeta {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const match = matches[i];
    if (!match) continue;
    const meta = (match.loaderData as { meta?: PageMeta } | null | undefined)?.meta;
    if (meta?.title) return meta;
    const def = defOf(match);
    if (def) return { title: def.title };
  }
  return {};
}

function jsonLdGraph(data: NonNullable<PageMeta["jsonLd"]>): Record<string, unknown> {
  return Array.isArray(data) ? { "@graph": data } : data;
}

const URL_KEYS = new Set([
  "url",
  "@id",
  "image",
  "thumbnailUrl",
  "contentUrl",
  "embedUrl",
  "logo",
  "item",
  "target",
  "urlTemplate",
]);

/** Structured data needs absolute addresses: site-relative paths ("/course/1") under URL keys get the public origin. */
export function absoluteJsonLd(value: unknown, origin: string, isUrl = false): unknown {
  if (typeof value === "string")
    return isUrl && value.startsWith("/") && !value.startsWith("//") ? origin + value : value;
  if (Array.isArray(value)) return value.map((v) => absoluteJsonLd(v, origin, isUrl));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, absoluteJsonLd(v, origin, URL_KEYS.has(k))]));
  }
  return value;
}

/** Canonical address: the clean path on the public origin. */
function canonicalPath(pathname: string): string {
  const clean = pathname.replace(/\/index\.html$/, "") || "/";
  return clean;
}

function Head({ title }: { title?: string }) {
  const { root, nonce, boot } = useDocument();
  const location = useLocation();
  const meta = usePageMeta();
  const pageTitle = title ?? meta.title;
  const isHome = location.pathname === "/" || location.pathname === "/index.html";
  const fullTitle = !pageTitle || isHome ? root.siteName : `${pageTitle} - ${root.siteName}`;
  const description = meta.description ?? SITE_DESCRIPTION;
  const canonical = root.publicOrigin + canonicalPath(location.pathname) + (meta.canonicalSearch ?? "");
  const image = meta.image ? new URL(meta.image, root.publicOrigin).toString() : undefined;
  return (
    <head>
      <meta charSet="utf-8" />
      <meta
        name="viewport"
        content="width=device-width,initial-scale=1.0,minimum-scale=1.0,maximum-scale=1.0,user-scalable=no"
      />
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={canonical} />
      <meta property="og:site_name" content={root.siteName} />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={canonical} />
      <meta property="og:type" content={meta.type ?? "website"} />
      {image ? <meta property="og:image" content={image} /> : null}
      {meta.noindex ? <meta name="robots" content="noindex" /> : null}
      {meta.jsonLd ? (
        <script
          type="application/ld+json"
          nonce={nonce}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{
            __html: serializeForScript({
              "@context": "https://schema.org",
              ...(absoluteJsonLd(jsonLdGraph(meta.jsonLd), root.publicOrigin) as Record<string, unknown>),
            }),
          }}
        />
      ) : null}
      <meta name="build-version" content={root.build.version} />
      <meta name="build-date" content={root.build.buildDate} />
      <meta name="deploy-env" content={root.build.env} />
      <meta name="platform" content={root.build.platform} />
      <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      {root.assets.css.map((href) => (
        <link key={href} rel="stylesheet" href={href} />
      ))}
      {root.assets.modulepreload.map((href) => (
        <link key={href} rel="modulepreload" href={href} />
      ))}
      {/* `boot` was escaped by serializeForScript on the server; the browser passes it back verbatim. */}
      <script
        id={BOOT_ELEMENT_ID}
        type="application/json"
        nonce={nonce}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: boot }}
      />
    </head>
  );
}

function Shell({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <html lang="zh-CN">
      <Head title={title} />
      <body>
        <ProgressBar />
        <OfflineBanner />
        {children}
        <ScrollManager />
        <ClientPlugins />
      </body>
    </html>
  );
}

export function Document() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

/** Every route error ends here (as the original's single error page): default layout + error page. */
export function RootErrorBoundary() {
  const error = useRouteError();
  return (
    <Shell title={errorTitle(error)}>
      <DefaultLayout>
        <ErrorPage error={error} />
      </DefaultLayout>
    </Shell>
  );
}
