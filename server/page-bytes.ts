/**
 * The bytes of a stored page, with the places where its CSP nonce goes (docs/decisions/026).
 *
 * A page is split at each `nonce="…"` attribute that carries the nonce it was rendered with,
 * and put back together around a fresh nonce for every response: positions, never a search and
 * replace, so nothing in the page's text can become a nonce. A page in which the rendered nonce
 * shows up anywhere else is refused.
 *
 * The gzip copy is made once: each piece of page is compressed on its own (a full flush, so no
 * piece refers back into another or into a nonce) and the nonce goes between them as a stored
 * deflate block. The CRC-32 of the whole is combined from the pieces' CRCs without reading the
 * page again (zlib's crc32_combine, with the shift for each piece's length worked out once).
 */
import { constants, deflateRawSync } from "node:zlib";

const ATTRIBUTE_OPEN = Buffer.from('nonce="');
const ATTRIBUTE_CLOSE = 0x22; // "

/**
 * The page cut at the nonce attributes (the nonce bytes left out): n nonces, n + 1 pieces.
 * Null when the nonce occurs anywhere but as a whole `nonce="…"` attribute value.
 */
export function splitAtNonce(body: Buffer, nonce: string): Buffer[] | null {
  const needle = Buffer.from(nonce);
  if (needle.length === 0) return null;
  const pieces: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(needle); at !== -1; at = body.indexOf(needle, at + needle.length)) {
    const opens = at >= ATTRIBUTE_OPEN.length && body.subarray(at - ATTRIBUTE_OPEN.length, at).equals(ATTRIBUTE_OPEN);
    const closes = body[at + needle.length] === ATTRIBUTE_CLOSE;
    if (!opens || !closes) return null;
    pieces.push(body.subarray(from, at));
    from = at + needle.length;
  }
  pieces.push(body.subarray(from));
  return pieces;
}

/**
 * The page with `nonce` in each of its nonce places, as the parts to write one after the other:
 * the stored pieces themselves, not a copy (a page a request would otherwise allocate anew, and
 * leave to the garbage collector).
 */
export function joinWithNonce(pieces: readonly Buffer[], nonce: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  pieces.forEach((piece, i) => {
    if (i > 0) parts.push(nonce);
    parts.push(piece);
  });
  return parts;
}

// --- CRC-32 (IEEE, as gzip uses) ---------------------------------------------------------------

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array, previous = 0): number {
  let c = ~previous >>> 0;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** A linear map over GF(2)^32 as its 32 columns. */
type Operator = Uint32Array;

function apply(op: Operator, vec: number): number {
  let sum = 0;
  for (let i = 0; vec !== 0; i++, vec >>>= 1) if (vec & 1) sum ^= op[i]!;
  return sum >>> 0;
}

function compose(outer: Operator, inner: Operator): Operator {
  const out = new Uint32Array(32);
  for (let n = 0; n < 32; n++) out[n] = apply(outer, inner[n]!);
  return out;
}

/**
 * The map that takes crc(A) to the part of crc(A ‖ B) owed to A, for any B of `length` bytes:
 * crc(A ‖ B) = apply(shift(len B), crc(A)) ^ crc(B). zlib's crc32_combine, kept as one operator.
 */
export function crcShift(length: number): Operator {
  let result: Operator = new Uint32Array(32);
  for (let n = 0; n < 32; n++) result[n] = (1 << n) >>> 0;
  if (length <= 0) return result;
  let odd: Operator = new Uint32Array(32);
  odd[0] = 0xedb88320;
  for (let n = 1; n < 32; n++) odd[n] = (1 << (n - 1)) >>> 0;
  let even = compose(odd, odd); // two zero bits
  odd = compose(even, even); // four zero bits
  let len = length;
  for (;;) {
    even = compose(odd, odd);
    if (len & 1) result = compose(even, result);
    len = Math.floor(len / 2);
    if (len === 0) break;
    odd = compose(even, even);
    if (len & 1) result = compose(odd, result);
    len = Math.floor(len / 2);
    if (len === 0) break;
  }
  return result;
}

// --- gzip around a fresh nonce ------------------------------------------------------------------

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);

export interface GzipPieces {
  /** Each piece deflated on its own; all but the last end on a full flush, the last is final. */
  deflated: Buffer[];
  /** CRC-32 and length of each piece. */
  crcs: number[];
  lengths: number[];
  /** For each piece after the first: the shift over that piece's length. */
  shifts: Operator[];
  /** The shift over one nonce (every nonce of an entry has the length it was rendered with). */
  nonceShift: Operator;
  nonceLength: number;
}

export function gzipPieces(pieces: readonly Buffer[], nonceLength: number): GzipPieces {
  const last = pieces.length - 1;
  return {
    deflated: pieces.map((piece, i) =>
      deflateRawSync(piece, { level: 6, finishFlush: i === last ? constants.Z_FINISH : constants.Z_FULL_FLUSH }),
    ),
    crcs: pieces.map((piece) => crc32(piece)),
    lengths: pieces.map((piece) => piece.length),
    shifts: pieces.map((piece) => crcShift(piece.length)),
    nonceShift: crcShift(nonceLength),
    nonceLength,
  };
}

/**
 * A complete gzip member: the stored pieces with `nonce` (of the entry's nonce length) between
 * them, as the parts to write one after the other (the stored pieces themselves, not a copy).
 */
export function gzipWithNonce(g: GzipPieces, nonce: Buffer): Buffer[] {
  if (nonce.length !== g.nonceLength || nonce.length > 0xffff) throw new Error("nonce length differs from the entry's");
  const len = nonce.length;
  const stored = Buffer.alloc(5 + len);
  stored[0] = 0x00; // BFINAL 0, BTYPE 00 (stored); the pieces before it end byte-aligned
  stored.writeUInt16LE(len, 1);
  stored.writeUInt16LE(~len & 0xffff, 3);
  nonce.copy(stored, 5);
  const nonceCrc = crc32(nonce);

  const parts: Buffer[] = [GZIP_HEADER];
  let crc = g.crcs[0]!;
  let total = g.lengths[0]!;
  parts.push(g.deflated[0]!);
  for (let i = 1; i < g.deflated.length; i++) {
    parts.push(stored, g.deflated[i]!);
    crc = (apply(g.nonceShift, crc) ^ nonceCrc) >>> 0;
    crc = (apply(g.shifts[i]!, crc) ^ g.crcs[i]!) >>> 0;
    total += len + g.lengths[i]!;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE(total >>> 0, 4);
  parts.push(trailer);
  return parts;
}
