/**
 * What crawlers are told about pages that do not say it themselves (each page's description is in
 * shared/page-descriptions.ts), and which pages are kept out of search
 * engines and out of the sitemap (steps of a flow, pages without content of their own).
 * Personal pages (access other than public) are never indexed either: see `isNoindexChain`.
 */
import { accessOf } from "./routes";
import type { RouteDef } from "./route-def";

/** Route ids whose pages are not indexed: placeholders, flow steps, transient or search pages. */
export const NOINDEX_ROUTE_IDS: ReadonlySet<string> = new Set([
  "bowser",
  "search",
  "payment",
  "payment.success",
  "my.logout",
  "qr.confirm",
  "activitys.token.share",
]);

/** True when a matched chain of route defs must carry `noindex`: personal, placeholder or test pages. */
export function isNoindexChain(chain: readonly RouteDef[]): boolean {
  if (chain.length === 0) return false;
  if (accessOf([...chain]) !== "public") return true;
  return chain.some((d) => NOINDEX_ROUTE_IDS.has(d.id) || d.middleware?.includes("testOnly"));
}

/** Size of the generated share pictures (server/share-image.ts). */
export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const;
export const DEFAULT_SHARE_IMAGE = "/media/share/default.jpg";
/** The square form WeChat prefers for its chat cards, offered as the second og:image. */
export const SQUARE_SHARE_IMAGE_SIZE = { width: 600, height: 600 } as const;
export const DEFAULT_SQUARE_SHARE_IMAGE = "/media/share/default-square.jpg";

/**
 * The link-preview picture of a page's image: a generated cover becomes its raster share picture,
 * a JPEG or PNG stays, anything else (SVG, none) becomes the site's default share picture —
 * WeChat, Weibo and most previews show no SVG.
 */
export function shareImageFor(image: string | undefined): string {
  if (!image) return DEFAULT_SHARE_IMAGE;
  const cover = /\/media\/cover\/([a-z]+)\/([0-9a-f]{4,5})(?:-(?:portrait|square))?\.svg$/.exec(image);
  if (cover) return `/media/share/${cover[1]}/${cover[2]}.jpg`;
  const path = image.split(/[?#]/)[0] ?? "";
  return /\.(jpe?g|png)$/i.test(path) ? image : DEFAULT_SHARE_IMAGE;
}

/**
 * The square (600×600) link-preview picture of a page: the square form of a generated cover or of
 * the default picture; a page's own JPEG or PNG gives its `squareImage` (a homework share's square
 * poster) or, without one, the site's default square picture.
 */
export function squareShareImageFor(image: string | undefined, squareImage?: string): string {
  if (squareImage) return squareImage;
  const wide = shareImageFor(image);
  const generated = /^\/media\/share\/(?:[a-z]+\/)?([0-9a-f]{4,5}|default)\.jpg$/.exec(wide);
  return generated ? wide.replace(/\.jpg$/, "-square.jpg") : DEFAULT_SQUARE_SHARE_IMAGE;
}

/** True when the share picture is one the server makes (its size is known). */
export function isGeneratedShareImage(url: string): boolean {
  return url.includes("/media/share/");
}
