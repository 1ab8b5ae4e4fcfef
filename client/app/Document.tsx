/**
 * The whole HTML document, rendered by React on the server and hydrated in the browser.
 * The root route's component (pages render through <Outlet/>) and its error boundary.
 */
import { type ReactNode, Suspense, useEffect } from "react";
import { Outlet, useLocation, useMatches, useRouteError } from "react-router-dom";
import { SITE_DESCRIPTION } from "../../shared/constants";
import { serializeForScript } from "../../shared/serialize";
import { DefaultLayout } from "../layouts/DefaultLayout";
import { ClientPlugins } from "../lib/client-plugins";
import { useRevealFocusedFields } from "../lib/use-keyboard-reveal";
import { OfflineBanner } from "../lib/online";
import { ProgressBar } from "../lib/progress-bar";
import { ScrollManager } from "../lib/scroll";
import { defOf } from "../../shared/routes";
import type { RouteDef } from "../../shared/route-def";
import {
  isGeneratedShareImage,
  isNoindexChain,
  SHARE_IMAGE_SIZE,
  shareImageFor,
  SQUARE_SHARE_IMAGE_SIZE,
  squareShareImageFor,
} from "../../shared/seo";
import { ErrorPage, errorTitle } from "./ErrorPage";
import { BOOT_ELEMENT_ID, useDocument } from "../lib/root-data";
import { describeRoute } from "../lib/route-descriptions";

/** What a page loader may say about its page in `meta` (all optional). */
export interface PageMeta {
  title?: string;
  description?: string;
  /** Site-relative or absolute picture for link previews (og:image). */
  image?: string;
  /** A 600×600 JPEG of the same picture (the second og:image, WeChat's chat cards); see squareShareImageFor. */
  squareImage?: string;
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

declare module "react" {
  // The HTML `disabled` attribute of a stylesheet link (a switched-off stylesheet is not fetched),
  // which React renders as any boolean attribute but its types leave out.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface LinkHTMLAttributes<T> {
    disabled?: boolean | undefined;
  }
}

/** Inlined stylesheets' text in the browser, read back from the document once (decision 049). */
const inlinedText = new Map<string, string>();

/** The text of an inlined stylesheet: the server's copy, else the one the document carries. */
function inlinedStyle(href: string, styles: Record<string, string> | undefined): string {
  const fromServer = styles?.[href];
  if (fromServer !== undefined) return fromServer;
  let text = inlinedText.get(href);
  if (text === undefined) {
    text =
      typeof document === "undefined"
        ? ""
        : (document.querySelector(`style[data-href="${CSS.escape(href)}"]`)?.textContent ?? "");
    inlinedText.set(href, text);
  }
  return text;
}

/** Font stylesheets (`@font-face` only) are linked switched off; they are switched on here. */
export const FONT_LINK_SELECTOR = "link[data-font-face]";

/** Switches the page's font stylesheets on once the page has loaded (at once if it has). */
function useFontsAfterLoad() {
  useEffect(() => {
    const enable = () => {
      for (const link of document.querySelectorAll<HTMLLinkElement>(FONT_LINK_SELECTOR)) link.disabled = false;
    };
    if (document.readyState === "complete") {
      enable();
      return;
    }
    window.addEventListener("load", enable, { once: true });
    return () => window.removeEventListener("load", enable);
  }, []);
}

/**
 * The page's stylesheets (decision 049). Its own rules are inlined (no request between the
 * document and its first paint), each beside a switched-off link to the same file, which tells
 * the build's loader of page chunks that the rules are in the page already. Font stylesheets
 * (the brush hand's `@font-face` rules, 120 KB) are linked switched off and switched on once the
 * page has loaded: until then the few brush characters show in the fallback face, as
 * `font-display: swap` shows them while a font loads. Without scripts, <noscript> links them.
 */
function Stylesheets() {
  const { root, nonce, styles } = useDocument();
  useFontsAfterLoad();
  return (
    <>
      {root.assets.css.map((href) => (
        <style
          key={href}
          nonce={nonce}
          data-href={href}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: inlinedStyle(href, styles) }}
        />
      ))}
      {root.assets.css.map((href) => (
        <link key={href} rel="stylesheet" href={href} disabled />
      ))}
      {root.assets.fonts.map((href) => (
        <link key={href} rel="stylesheet" href={href} disabled data-font-face="" suppressHydrationWarning />
      ))}
      {root.assets.fonts.length > 0 ? (
        <noscript>
          {root.assets.fonts.map((href) => (
            <link key={href} rel="stylesheet" href={href} />
          ))}
        </noscript>
      ) : null}
    </>
  );
}

/** The route defs of the matched pages, outermost first. */
function useRouteChain(): RouteDef[] {
  return useMatches()
    .map((m) => defOf(m))
    .filter((d): d is RouteDef => Boolean(d));
}

/** Canonical address: the clean path on the public origin. */
function canonicalPath(pathname: string): string {
  const clean = pathname.replace(/\/index\.html$/, "") || "/";
  return clean;
}

/**
 * The document head. An error page (`failed`) has no canonical address and is not indexed; so
 * are personal and placeholder pages (shared/seo.ts). Every page has a raster preview picture.
 */
function Head({ title, failed = false }: { title?: string; failed?: boolean }) {
  const { root, nonce, boot } = useDocument();
  const location = useLocation();
  const meta = usePageMeta();
  const chain = useRouteChain();
  const pageTitle = title ?? meta.title;
  const isHome = location.pathname === "/" || location.pathname === "/index.html";
  const fullTitle = !pageTitle || isHome ? root.siteName : `${pageTitle} - ${root.siteName}`;
  const description =
    (failed ? undefined : meta.description) ?? describeRoute(chain, root.routeDescription) ?? SITE_DESCRIPTION;
  const cleanPath = canonicalPath(location.pathname);
  const canonical = failed ? undefined : root.publicOrigin + cleanPath + (meta.canonicalSearch ?? "");
  const shareImage = shareImageFor(failed ? undefined : meta.image);
  const image = new URL(shareImage, root.publicOrigin).toString();
  const squareImage = new URL(
    squareShareImageFor(failed ? undefined : meta.image, failed ? undefined : meta.squareImage),
    root.publicOrigin,
  ).toString();
  const noindex = failed || meta.noindex === true || isNoindexChain(chain);
  const mobileUrl = root.mobileSiteUrl ? root.mobileSiteUrl.replace(/\/$/, "") + cleanPath : null;
  return (
    <head>
      <meta charSet="utf-8" />
      <meta
        name="viewport"
        content="width=device-width,initial-scale=1.0,minimum-scale=1.0,maximum-scale=1.0,user-scalable=no,interactive-widget=resizes-content"
      />
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      {canonical ? <link rel="canonical" href={canonical} /> : null}
      <meta property="og:site_name" content={root.siteName} />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:description" content={description} />
      {canonical ? <meta property="og:url" content={canonical} /> : null}
      <meta property="og:type" content={meta.type ?? "website"} />
      <meta property="og:image" content={image} />
      {isGeneratedShareImage(shareImage) ? (
        <>
          <meta property="og:image:type" content="image/jpeg" />
          <meta property="og:image:width" content={String(SHARE_IMAGE_SIZE.width)} />
          <meta property="og:image:height" content={String(SHARE_IMAGE_SIZE.height)} />
        </>
      ) : null}
      <meta property="og:image" content={squareImage} />
      <meta property="og:image:type" content="image/jpeg" />
      <meta property="og:image:width" content={String(SQUARE_SHARE_IMAGE_SIZE.width)} />
      <meta property="og:image:height" content={String(SQUARE_SHARE_IMAGE_SIZE.height)} />
      {noindex ? <meta name="robots" content="noindex" /> : null}
      {mobileUrl ? (
        <>
          <meta name="applicable-device" content="pc" />
          <meta name="mobile-agent" content={`format=html5;url=${mobileUrl}`} />
          <link rel="alternate" media="only screen and (max-width: 640px)" href={mobileUrl} />
        </>
      ) : null}
      {root.siteVerification.baidu ? (
        <meta name="baidu-site-verification" content={root.siteVerification.baidu} />
      ) : null}
      {root.siteVerification.bing ? <meta name="msvalidate.01" content={root.siteVerification.bing} /> : null}
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
      <link rel="icon" href="/favicon.ico" sizes="48x48" />
      <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      <Stylesheets />
      {root.assets.modulepreload.map((href) => (
        <link key={href} rel="modulepreload" href={href} />
      ))}
      {/* `boot` was written by serializeBoot on the server (escaped, ASCII); the browser passes it back verbatim. */}
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

function Shell({ title, failed, children }: { title?: string; failed?: boolean; children: ReactNode }) {
  // Phones: the on-screen keyboard never covers the field being typed into.
  useRevealFocusedFields();
  return (
    <html lang="zh-CN">
      <Head title={title} failed={failed} />
      <body>
        <ProgressBar />
        <OfflineBanner />
        {/*
         * The page in a boundary of its own: the browser hydrates the document's frame at once and
         * the page after it, in slices that leave the main thread free between them, so hydrating a
         * long page is no single long task (a click meanwhile hydrates its part first and is then
         * handled). The document counts as hydrated once the page is (ClientPlugins, inside).
         */}
        <Suspense fallback={null}>
          {children}
          <ClientPlugins />
        </Suspense>
        <ScrollManager />
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
    <Shell title={errorTitle(error)} failed>
      <DefaultLayout>
        <ErrorPage error={error} />
      </DefaultLayout>
    </Shell>
  );
}
