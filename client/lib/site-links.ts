/**
 * A notice's text with the site's own paths in it (a gift's claim link, an order page) split out,
 * so they can be shown as links. Only paths of this site: a "/" after a space or the start,
 * followed by a lower-case route name; never a whole URL of another site.
 */
export type TextPart = { text: string } | { path: string };

const SITE_PATH = /(^|\s)(\/[a-z][a-z0-9-]*(?:\/[A-Za-z0-9-]+)*(?:\?[A-Za-z0-9=&%-]+)?)/g;

export function splitSitePaths(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(SITE_PATH)) {
    const start = (match.index ?? 0) + (match[1] ?? "").length;
    const path = match[2] ?? "";
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push({ path });
    last = start + path.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
