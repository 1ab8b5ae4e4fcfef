/** What the page exposes about the build, as the original front end did (spec §1, §9). */
export interface BuildInfo {
  version: string;
  buildDate: string;
  env: string;
  platform: "pc";
}
