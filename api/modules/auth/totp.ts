/**
 * Time-based one-time passwords (RFC 6238) as every authenticator app makes them: SHA-1, 6
 * digits, 30-second steps, a 160-bit random secret. The arithmetic is the `otpauth` library's
 * (decision 072); what is ours is which step a code belongs to, so a used step can be refused.
 */
import { Secret, TOTP } from "otpauth";

const PERIOD_SECONDS = 30;
/** A code of the step before or after this one still counts: clocks of phones drift. */
const DRIFT_STEPS = 1;

const totpOf = (secret: string, label = "", issuer = "") =>
  new TOTP({ issuer, label, algorithm: "SHA1", digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });

/** A new random secret (160 bits, the RFC's recommended length), in base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` link an app reads from the QR code: the site's name and the account's label. */
export function totpUri(secret: string, issuer: string, account: string): string {
  return totpOf(secret, account, issuer).toString();
}

/** The time step `code` was made for (Unix seconds / 30), or null when it matches none near `now`. */
export function totpStep(secret: string, code: string, now: Date): number | null {
  const delta = totpOf(secret).validate({ token: code, timestamp: now.getTime(), window: DRIFT_STEPS });
  return delta === null ? null : Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}
