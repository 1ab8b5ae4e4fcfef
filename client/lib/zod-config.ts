/**
 * zod in the browser never compiles parsers with `new Function`: the site's CSP forbids
 * `unsafe-eval`, and zod's probe for it (a caught `Function("")`, made when the first object
 * schema is built) is still reported as a CSP violation. Imported first by the browser entry,
 * before any schema exists.
 *
 * This is `z.config({ jitless: true })` without importing zod: zod keeps its one configuration
 * on `globalThis.__zod_globalConfig` (shared by every copy of zod on a page) and adopts an
 * existing object, so the entry stays free of zod, which loads with the first contract
 * (decision 030). zod-config.test.ts checks that zod reads it. The server keeps compiled parsers.
 */
type ZodGlobalConfig = { jitless?: boolean };

const holder = globalThis as { __zod_globalConfig?: ZodGlobalConfig };
holder.__zod_globalConfig = Object.assign(holder.__zod_globalConfig ?? {}, { jitless: true });
export {};
