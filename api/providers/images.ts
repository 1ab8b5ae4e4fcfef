/**
 * sharp (libvips, about 30 MB resident once loaded) is loaded with the first image a request or
 * the demo seed processes, not at start: most nodes never resize a picture between restarts.
 */
import type Sharp from "sharp";

let loading: Promise<typeof Sharp> | undefined;

export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import("sharp").then((m) => m.default);
  return loading;
}
