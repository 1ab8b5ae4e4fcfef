import { type IncomingHttpHeaders, get } from "node:http";

/**
 * A GET whose body comes back as the bytes sent, undecoded: supertest asks for gzip itself and
 * decodes what it gets, which hides which copy or encoding the server chose.
 */
export function rawGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on("error", reject);
  });
}
