import { randomBytes } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { crc32, crcShift, gzipPieces, gzipWithNonce, joinWithNonce, splitAtNonce } from "./page-bytes";

const nonceOf = () => randomBytes(16).toString("base64");

describe("page bytes around a nonce", () => {
  it("cuts only at nonce attributes and puts a fresh nonce in exactly those places", () => {
    const n = nonceOf();
    const page = Buffer.from(
      `<head><script nonce="${n}" type="application/json">{"a":1}</script></head><body><p>nonce="other"</p><script type="module" nonce="${n}" src="/x.js"></script></body>`,
    );
    const pieces = splitAtNonce(page, n);
    expect(pieces).toHaveLength(3);
    const fresh = nonceOf();
    const out = Buffer.concat(joinWithNonce(pieces!, Buffer.from(fresh))).toString();
    expect(out).toBe(page.toString().replaceAll(n, fresh));
    expect(out).toContain('<p>nonce="other"</p>');
  });

  it("gives the stored pieces themselves to write, not a copy of the page per response", () => {
    const n = nonceOf();
    const page = Buffer.from(
      `<script nonce="${n}">1</script><p>${"页".repeat(20_000)}</p><script nonce="${n}">2</script>`,
    );
    const pieces = splitAtNonce(page, n)!;
    const fresh = Buffer.from(nonceOf());
    const parts = joinWithNonce(pieces, fresh);
    expect(parts).toEqual([pieces[0], fresh, pieces[1], fresh, pieces[2]]);
    parts.forEach((part, i) => expect(part).toBe(i % 2 === 0 ? pieces[i / 2] : fresh));
    const g = gzipPieces(pieces, fresh.length);
    const gz = gzipWithNonce(g, fresh);
    for (const deflated of g.deflated) expect(gz).toContain(deflated);
  });

  it("refuses a page in which the rendered nonce appears anywhere but as a nonce attribute", () => {
    const n = nonceOf();
    // Text that looks like the nonce (or like its attribute) cannot be turned into a nonce place.
    for (const text of [`<p>${n}</p>`, `<p>nonce=&quot;${n}&quot;</p>`, `<a data-x="${n}">`, `nonce="${n}x"`]) {
      expect(splitAtNonce(Buffer.from(`<script nonce="${n}"></script>${text}`), n)).toBeNull();
    }
    // A nonce attribute with a value other than the rendered one is text, left as it is.
    const p = splitAtNonce(Buffer.from(`<p>nonce="${nonceOf()}"</p><script nonce="${n}"></script>`), n);
    expect(p).toHaveLength(2);
  });

  it("combines CRC-32s as if the whole were read", () => {
    const a = randomBytes(1000);
    const b = randomBytes(777);
    const combined = ((): number => {
      const shift = crcShift(b.length);
      let sum = 0;
      let v = crc32(a);
      for (let i = 0; v !== 0; i++, v >>>= 1) if (v & 1) sum ^= shift[i]!;
      return (sum ^ crc32(b)) >>> 0;
    })();
    expect(combined).toBe(crc32(Buffer.concat([a, b])));
  });

  it("makes a valid gzip member around each fresh nonce", () => {
    const n = nonceOf();
    const page = Buffer.from(
      `<!doctype html><html><head><script nonce="${n}">${"x".repeat(5000)}</script></head><body>${"<p>墨池</p>".repeat(2000)}<script nonce="${n}" src="/a.js"></script></body></html>`,
    );
    const pieces = splitAtNonce(page, n)!;
    const g = gzipPieces(pieces, Buffer.byteLength(n));
    for (let i = 0; i < 3; i++) {
      const fresh = nonceOf();
      const gz = Buffer.concat(gzipWithNonce(g, Buffer.from(fresh)));
      expect(gunzipSync(gz).toString()).toBe(page.toString().replaceAll(n, fresh));
      expect(gz.length).toBeLessThan(page.length / 5);
    }
  });

  it("handles a page with no nonce at all", () => {
    const page = Buffer.from("<p>plain</p>");
    const pieces = splitAtNonce(page, nonceOf())!;
    expect(pieces).toHaveLength(1);
    const gz = Buffer.concat(gzipWithNonce(gzipPieces(pieces, 24), Buffer.from(nonceOf())));
    expect(gunzipSync(gz).toString()).toBe("<p>plain</p>");
  });
});
