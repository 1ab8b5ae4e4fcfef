/** Small files the server answers itself. */
export function robotsTxt(publicOrigin: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /my/",
    "Disallow: /payment",
    "Disallow: /teach",
    "Disallow: /admin",
    "Disallow: /api/",
    "Disallow: /__test/",
    `Sitemap: ${publicOrigin}/sitemap.xml`,
    "",
  ].join("\n");
}

/** The seal logo as the site icon. */
export const faviconSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect x="2" y="2" width="60" height="60" rx="8" fill="#b22c1a"/><rect x="7" y="7" width="50" height="50" rx="4" fill="none" stroke="#f7f3ea" stroke-width="2"/><text x="32" y="44" text-anchor="middle" font-size="32" fill="#f7f3ea" font-family="'Noto Serif CJK SC','Source Han Serif SC','Songti SC',serif" font-weight="700">墨</text></svg>`;
