/** Browsers we do not support get the `/bowser` page; crawlers never do. Decided on the server. */
import Bowser from "bowser";
import { isbot } from "isbot";

export function isUnsupportedBrowser(userAgent: string): boolean {
  if (!userAgent || isbot(userAgent)) return false;
  const verdict = Bowser.getParser(userAgent).satisfies({
    "internet explorer": ">11",
    edge: ">=79",
    chrome: ">=87",
    chromium: ">=87",
    firefox: ">=78",
    safari: ">=14",
    opera: ">=73",
    "samsung internet for android": ">=14",
  });
  // undefined: no rule names this browser; let it through rather than lock anyone out.
  return verdict === false;
}
