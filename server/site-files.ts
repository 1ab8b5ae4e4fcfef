/**
 * Step 7 of the web server (server/app.ts): the files and pictures it serves itself, ahead of
 * server rendering. robots.txt, the sitemap, the icons, share pictures and QR codes, the sample
 * and uploaded lesson videos, covers, and the development outbox.
 */
import path from "node:path";
import express, { type Express } from "express";
import { lastGoodSitemap, lessonVideoRoot, type Services, sitemapHandler } from "../api/index";
import { UPLOADED_VIDEO_BASE } from "../shared/media";
import type { AppConfig } from "./config";
import { coverHandler } from "./cover";
import { devOutboxHandler, outboxAllowed } from "./dev-outbox";
import { glyphHandler } from "./glyph";
import { qrCodeHandler, shareImageHandlers } from "./share-image";
import { faviconSvg, robotsTxt } from "./static-files";

/** Content types of the sample video files, whatever the MIME table of the day says. */
const VIDEO_TYPES: Record<string, string> = {
  ".mp4": "video/mp4",
  ".m3u8": "application/vnd.apple.mpegurl",
  ".ts": "video/mp2t",
  ".jpg": "image/jpeg",
  ".vtt": "text/vtt; charset=utf-8",
};

/** Video files (MP4 with range requests, HLS, posters, subtitles) under stable names, with their own types. */
function videoFiles(dir: string, cacheControl: string) {
  return express.static(dir, {
    fallthrough: false,
    index: false,
    redirect: false,
    dotfiles: "ignore",
    cacheControl: false,
    setHeaders: (res, file) => {
      const type = VIDEO_TYPES[path.extname(file)];
      if (type) res.setHeader("Content-Type", type);
      res.setHeader("Cache-Control", cacheControl);
    },
  });
}

export function mountSiteFiles(app: Express, config: AppConfig, services: Services | undefined) {
  // 7. robots.txt, the favicon and generated pictures.
  app.get("/robots.txt", (_req, res) => {
    res.type("text/plain").setHeader("Cache-Control", "public, max-age=3600");
    res.send(robotsTxt(config.publicOrigin));
  });
  // The sitemap is made by the API (it needs the database): in process, or asked of API_ORIGIN.
  if (services && !config.apiOrigin) app.get("/sitemap.xml", sitemapHandler(services.api));
  else if (config.apiOrigin)
    app.get(
      "/sitemap.xml",
      lastGoodSitemap(async () => {
        const upstream = await fetch(`${config.apiOrigin}/api/sitemap.xml`, {
          signal: AbortSignal.timeout(config.upstreamTimeoutMs),
        });
        if (!upstream.ok)
          throw Object.assign(new Error(`sitemap upstream answered ${upstream.status}`), { status: 502 });
        return upstream.text();
      }),
    );
  app.get("/favicon.svg", (_req, res) => {
    res.type("image/svg+xml").setHeader("Cache-Control", "public, max-age=86400");
    res.send(faviconSvg);
  });
  // Raster pictures made on first use and kept (server/share-image.ts): the ICO icon and link previews.
  const pictures = shareImageHandlers(config.siteName);
  app.get("/favicon.ico", pictures.favicon);
  app.get(["/media/share/:tone/:file", "/media/share/:file"], pictures.share);
  app.get("/media/qr.svg", qrCodeHandler(config.mobileSiteUrl ?? config.publicOrigin));

  app.get("/media/glyph/:file", glyphHandler);
  // The sample lesson videos (MP4 with range requests, HLS, posters): stable names, a day of cache.
  app.use("/media/video", videoFiles(path.join(config.mediaDir, "video"), "public, max-age=86400"));
  // Lesson videos uploaded by operators and transcoded here (DATA_DIR/uploads/lessons/<folder>/): the
  // folder name is random and only a learner allowed to watch the lesson is told it; a new upload is
  // a new folder, so the files never change under their names.
  app.use(UPLOADED_VIDEO_BASE, videoFiles(lessonVideoRoot(config.dataDir), "private, max-age=86400"));
  app.get("/media/cover/:tone/:file", coverHandler);

  // The development outbox (codes that were not really sent): never in the pro environment.
  if (outboxAllowed(config)) app.get("/dev/outbox", devOutboxHandler(services?.api.outbox));
}
