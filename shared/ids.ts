/** Database ids as the site writes them in paths, queries and forms. */

/** The largest value of a PostgreSQL int4 column: every id and every reference to one is within it. */
export const INT4_MAX = 2_147_483_647;

/** An id written as text: a positive integer without sign or leading zero, within int4. */
export function isIdText(value: string): boolean {
  return /^[1-9]\d{0,9}$/.test(value) && Number(value) <= INT4_MAX;
}
