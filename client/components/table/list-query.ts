/**
 * A staff table's loader asks the API with the page URL's own parameters (filters, sort, page):
 * only the ones the endpoint reads, empty ones left out, in the order given.
 */
export function listQuery(from: Request | URL, keys: readonly string[]): string {
  const url = from instanceof URL ? from : new URL(from.url);
  const query = new URLSearchParams();
  for (const key of keys) {
    const value = url.searchParams.get(key);
    if (value) query.set(key, value);
  }
  const text = query.toString();
  return text ? `?${text}` : "";
}
