/**
 * The part of negotiator 0.6 (the copy compression uses) that server/page-cache.ts calls.
 * @types/negotiator 0.6 lacks `encoding`'s second argument, the server's preference on ties,
 * which compression passes; so the types are declared here.
 */
declare module "negotiator" {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | string[] | undefined> });
    /** The client's most preferred of `available`; on equal quality, the earliest in `preferred`. */
    encoding(available: readonly string[], preferred?: readonly string[]): string | undefined;
  }
}
