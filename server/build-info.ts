import pkg from "../package.json" with { type: "json" };
import type { BuildInfo } from "../shared/build-info";

/** Set by vite.config.ts when the server is built; tests run from source see "unbuilt". */
declare const __BUILD_DATE__: string | undefined;

export function buildInfo(deployEnv: string): BuildInfo {
  return {
    version: pkg.version,
    buildDate: typeof __BUILD_DATE__ === "string" ? __BUILD_DATE__ : "unbuilt",
    env: deployEnv,
    platform: "pc",
  };
}
