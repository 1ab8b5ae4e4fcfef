/**
 * Dead exports: lists every value (function, constant, class) exported from api/, server/, shared/ or client/ that no other
 * file imports (tests, scripts and configuration count as importers), and exits 1 when there is
 * one. Part of `npm run lint`. Reads the sources with the TypeScript parser only (no type check).
 *
 * A file counts as using every export of another when it imports it whole: `import * as`,
 * `export * from`, `import("…")`, `typeof import("…")`, or a Vite `import.meta.glob` that
 * matches it (the page modules). A name used only in its own file should not be exported.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "..");
const CHECKED = /^(api|server|shared|client)\//;

/**
 * Files whose exports are read by something other than an import: entry points, and the names
 * frameworks look for. Keep each with its reason.
 */
const ALLOWED = [
  // Process entries (vite.config.ts builds them; package.json scripts run them).
  { file: "server/main.ts" },
  { file: "server/api-main.ts" },
  { file: "server/cli.ts" },
  // The browser's entry (vite.config.ts). Page modules need no entry here: the import.meta.glob
  // calls that load them count as importing them whole; configuration files are not checked.
  { file: "client/entry-client.tsx" },
];

/**
 * Dead exports older than this check, still to be removed or unexported (most are used in their own
 * file only). The list only shrinks: an entry that is no longer dead is an error too.
 */
const NOT_YET_REMOVED = {
  "api/modules/admin/accounts-admin.ts": ["ROLES", "GRANTABLE", "accountAddressSchema", "createAccountSchema"],
  "api/modules/audit/record.ts": ["COMMAND_LINE_ACTOR"],
  "api/modules/auth/code-delivery.ts": ["codeMessage", "refusalMessage"],
  "api/modules/auth/devices.ts": ["DEVICE_COOKIE"],
  "api/modules/auth/guard.ts": ["PASSWORD_CHANGE_REQUIRED_MESSAGE", "TWO_FACTOR_REQUIRED_MESSAGE"],
  "api/modules/auth/pending-logins.ts": ["PENDING_LOGIN_COOKIE", "PENDING_LOGIN_MS"],
  "api/modules/auth/qr-tickets.ts": ["QR_EVENTS_CHANNEL"],
  "api/modules/auth/two-factor.ts": ["TWO_FACTOR_LIMITS"],
  "api/modules/catalogue-admin/ffmpeg.ts": ["HLS_SEGMENT_SECONDS"],
  "api/modules/catalogue-admin/video.ts": [
    "runVideoWorker",
    "VIDEO_JOB_EVERY_MS",
    "VIDEO_LEASE_SECONDS",
    "VIDEO_FAILED_MESSAGE",
    "VIDEO_INTERRUPTED_MESSAGE",
  ],
  "api/modules/coupons/admin.ts": ["NOTICE_COUPON_ISSUED"],
  "api/modules/courses/catalogue.ts": ["RELATED_LIMITS", "relatedItems"],
  "api/modules/courses/learner.ts": ["MY_COURSES_LIMIT", "paymentRequired"],
  "api/modules/feedback/feedback.ts": ["NOTICE_FEEDBACK_REPLY"],
  "api/modules/gifts/fulfil.ts": ["NOTICE_GIFT_READY", "giftPaid", "giftClosed", "giftRefunded", "giftInfoOf"],
  "api/modules/gifts/gifts.ts": ["newGiftCode"],
  "api/modules/groups/fulfil.ts": [
    "groupOrderClosed",
    "groupRefunded",
    "groupInfoOf",
    "NOTICE_GROUP_OPENED",
    "NOTICE_GROUP_JOINED",
    "NOTICE_GROUP_COMPLETE",
    "groupPaid",
  ],
  "api/modules/groups/job.ts": ["GROUP_REFUND_REASON"],
  "api/modules/groups/seed.ts": ["groupPriceFor"],
  "api/modules/homework/endpoints.ts": ["HOMEWORK_UPLOADS_PER_HOUR"],
  "api/modules/homework/homework.ts": ["UNATTACHED_PHOTOS_MAX"],
  "api/modules/homework/paper.ts": ["PAPER", "INK", "SEAL_RED", "wrapLines"],
  "api/modules/homework/photos.ts": ["DISPLAY_LONG_SIDE"],
  "api/modules/homework/phrases.ts": ["DEFAULT_PHRASES"],
  "api/modules/homework/upload-job.ts": ["UPLOAD_JOB_EVERY_MS"],
  "api/modules/homework/views.ts": ["photoUrl"],
  "api/modules/homework/wall.ts": ["shareUrl"],
  "api/modules/learning/progress.ts": ["normalizeReport"],
  "api/modules/learning/replays.ts": ["recordingDuration"],
  "api/modules/live-admin/sessions.ts": [
    "LIVE_MOVED_NOTICE_KIND",
    "LIVE_CANCELLED_NOTICE_KIND",
    "newStreamKey",
    "ingestOf",
  ],
  "api/modules/live/room-hub.ts": ["LIVE_ROOM_CHANNEL", "PRESENCE_BEAT_MS"],
  "api/modules/live/sessions.ts": ["LIVE_LIST_LIMIT"],
  "api/modules/live/state-job.ts": ["LIVE_JOB_EVERY_MS"],
  "api/modules/me/deletion.ts": ["ERASED_NICKNAME"],
  "api/modules/me/endpoints.ts": ["AVATAR_UPLOADS_PER_HOUR"],
  "api/modules/me/overview.ts": ["todayCheckIn"],
  "api/modules/me/profile.ts": ["profileOf"],
  "api/modules/me/security.ts": ["sessionPublicId"],
  "api/modules/orders/addresses.ts": ["MAX_ADDRESSES"],
  "api/modules/orders/read.ts": ["ORDER_PAGE_SIZE"],
  "api/modules/orders/state.ts": ["returnCoupon", "NOTICE_ORDER_PAID", "releaseStock"],
  "api/modules/payments/expiry.ts": ["EXPIRED_REASON"],
  "api/modules/practice/calendar.ts": [
    "FEED_TOKEN",
    "feedUrl",
    "SHANGHAI_VTIMEZONE",
    "FEED_DAYS_BACK",
    "FEED_DAYS_AHEAD",
  ],
  "api/modules/practice/diary.ts": ["entryView"],
  "api/modules/practice/endpoints.ts": ["strokeData", "DIARY_UPLOADS_PER_HOUR", "FEED_FETCHES_PER_HOUR"],
  "api/modules/search/search.ts": ["containsPattern"],
  "api/modules/seo/sitemap.ts": ["sitemapEntries", "sitemapXml", "SITEMAP_RETRY_AFTER_S"],
  "api/modules/wallet/delivery.ts": ["NOTICE_REDEMPTION_SHIPPED"],
  "api/modules/wallet/ledger.ts": ["insufficientBalance"],
  "api/modules/wallet/redemption-job.ts": ["REDEMPTION_JOB_EVERY_MS"],
  "client/app/Document.tsx": ["FONT_LINK_SELECTOR"],
  "client/app/ErrorPage.tsx": ["routeErrorOf", "errorPageText", "ErrorPageFallback"],
  "client/components/Page.tsx": ["usePageTitle"],
  "client/components/SiteDrawer.tsx": ["DESKTOP_QUERY"],
  "client/components/commerce/payments-mode.tsx": ["BuyingOffNote"],
  "client/components/form/fields.tsx": ["SendCodeButton"],
  "client/components/homework/GridShape.tsx": ["GRID_COLOR"],
  "client/components/homework/canvas-geometry.ts": [
    "ellipseOutline",
    "DEFAULT_MARK_SIZE",
    "markPolyline",
    "distanceToSegment",
    "distanceToPolyline",
    "gridBounds",
    "GRID_DEFAULT_SIZE",
    "MIN_ZOOM",
  ],
  "client/components/homework/drawing-geometry.ts": ["outlinePath", "PEN_THINNING"],
  "client/components/homework/upload.ts": ["UPLOAD_JPEG_QUALITY"],
  "client/components/homework/zoom-geometry.ts": ["MAX_SCALE", "TAP_SCALE", "distance", "midpoint"],
  "client/components/player/player-storage.ts": ["readLocalPosition"],
  "client/components/player/usePlayerKeyboard.ts": ["SEEK_STEP"],
  "client/components/site-nav.tsx": ["mainNav"],
  "client/components/table/DataTable.tsx": ["columnLabel"],
  "client/features/admin/audit/ChainStatus.tsx": ["chainMessage"],
  "client/features/admin/desk-parts.tsx": ["useReloading"],
  "client/features/admin/orders/order-actions.tsx": ["CARRIERS"],
  "client/features/calmness/PrintSheets.tsx": ["SHEET_COLUMNS", "SHEET_MAX_CHARACTERS", "sheetCharacters"],
  "client/features/calmness/Trainer.tsx": ["TRAINER_PADDING"],
  "client/features/course/list-query.ts": ["listParams"],
  "client/features/home/BannerCarousel.tsx": ["BANNER_INTERVAL_MS"],
  "client/features/live/use-room-events.ts": ["mergeMessages"],
  "client/features/my/OverviewToday.tsx": ["StudyChart"],
  "client/features/my/order/OrderCard.tsx": ["discountOf"],
  "client/features/my/practice-charts.tsx": ["level"],
  "client/features/teach/review/tools.ts": ["TOOL_KEYS"],
  "client/features/teach/review/touch-input.ts": ["kindOf"],
  "client/features/video/PublicItemCard.tsx": ["PublicItemCard"],
  "client/lib/infinite-list.tsx": ["useInfiniteList"],
  "client/lib/lazy-image.tsx": ["loadImageElement"],
  "client/lib/modal.tsx": ["useModalStack"],
  "client/lib/online.tsx": ["useOnline"],
  "client/lib/open-window.ts": ["openWindowAfter"],
  "client/routing/data-strategy.ts": ["runPipeline"],
  "client/routing/get-form.tsx": ["queryOf"],
  "client/routing/middleware.ts": ["PASSWORD_CHANGE_PATH"],
};

const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "*.ts", "*.tsx", "*.mjs"], {
  cwd: root,
  encoding: "utf8",
})
  .split("\n")
  .filter((f) => f && !f.startsWith("node_modules/") && !f.startsWith("dist") && existsSync(path.join(root, f)));
const known = new Set(files);

/** The repository file an import specifier names, or null (a package, or not a source file). */
function resolve(from, specifier) {
  if (!specifier.startsWith(".")) return null;
  const bare = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier.split("?")[0]));
  for (const candidate of [bare, `${bare}.ts`, `${bare}.tsx`, `${bare}.d.ts`, `${bare}/index.ts`, `${bare}/index.tsx`])
    if (known.has(candidate)) return candidate;
  return null;
}

/** The files a Vite glob pattern (`../features/**\/*.page.tsx`) matches. */
function globMatches(from, pattern) {
  const full = path.posix.normalize(path.posix.join(path.posix.dirname(from), pattern));
  const regex = new RegExp(
    `^${full
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*\*\//g, "\uE000")
      .replace(/\*/g, "[^/]*")
      .replace(/\uE000/g, "(?:.*/)?")}$`,
  );
  return files.filter((f) => regex.test(f));
}

const exported = new Map(); // file → Map(name → line)
const used = new Map(); // file → Set(name) or "all"

const use = (file, name) => {
  if (!file) return;
  if (used.get(file) === "all") return;
  if (!used.has(file)) used.set(file, new Set());
  used.get(file).add(name);
};
const useAll = (file) => file && used.set(file, "all");

const hasExport = (node) => ts.getModifiers?.(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
const isDefault = (node) => ts.getModifiers?.(node)?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword) ?? false;

for (const file of files) {
  const text = readFileSync(path.join(root, file), "utf8");
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : file.endsWith(".mjs") ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const names = new Map();
  const line = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const declare = (name, node) => names.set(name, line(node));

  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const target = resolve(file, statement.moduleSpecifier.text);
      const clause = statement.importClause;
      if (clause?.name) use(target, "default");
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) useAll(target);
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements) use(target, (element.propertyName ?? element.name).text);
    } else if (ts.isExportDeclaration(statement)) {
      const target =
        statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
          ? resolve(file, statement.moduleSpecifier.text)
          : null;
      if (!statement.exportClause) useAll(target);
      else if (ts.isNamedExports(statement.exportClause))
        for (const element of statement.exportClause.elements) {
          if (!statement.isTypeOnly && !element.isTypeOnly) declare(element.name.text, element);
          if (target) use(target, (element.propertyName ?? element.name).text);
        }
    } else if (ts.isExportAssignment(statement)) {
      declare("default", statement);
    } else if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
      // Types are not checked: a type named in an exported signature is exported with it, and costs nothing at run time.
    } else if (hasExport(statement)) {
      if (isDefault(statement)) declare("default", statement);
      else if (ts.isVariableStatement(statement))
        for (const d of statement.declarationList.declarations) {
          if (ts.isIdentifier(d.name)) declare(d.name.text, d);
        }
      else if (statement.name && ts.isIdentifier(statement.name)) declare(statement.name.text, statement);
    }
  }
  // Whole-module uses anywhere in the file: import("…"), typeof import("…"), import.meta.glob(…).
  const visit = (node) => {
    if (ts.isCallExpression(node)) {
      const [first] = node.arguments;
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword && first && ts.isStringLiteralLike(first))
        useAll(resolve(file, first.text));
      if (node.expression.getText(source) === "import.meta.glob" && first) {
        const patterns = ts.isArrayLiteralExpression(first) ? first.elements : [first];
        for (const p of patterns) if (ts.isStringLiteralLike(p)) globMatches(file, p.text).forEach(useAll);
      }
    }
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal))
      useAll(resolve(file, node.argument.literal.text));
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (CHECKED.test(file) && !file.endsWith(".d.ts") && !/\.test\.tsx?$/.test(file)) exported.set(file, names);
}

const allowed = new Set(ALLOWED.map((a) => a.file));
const dead = [];
const stillListed = new Set(
  Object.entries(NOT_YET_REMOVED).flatMap(([file, names]) => names.map((n) => `${file} ${n}`)),
);
for (const [file, names] of exported) {
  if (allowed.has(file)) continue;
  const seen = used.get(file);
  for (const [name, at] of names) {
    if (seen === "all" || seen?.has(name)) continue;
    if (stillListed.delete(`${file} ${name}`)) continue;
    dead.push(`${file}:${at}  ${name}`);
  }
}
if (dead.length) {
  console.error(`Exported but never imported (remove it, or drop the export where it is used locally):`);
  for (const entry of dead.sort()) console.error(`  ${entry}`);
}
if (stillListed.size) {
  console.error(`No longer dead exports: take them off NOT_YET_REMOVED in scripts/check-exports.mjs:`);
  for (const entry of [...stillListed].sort()) console.error(`  ${entry}`);
}
if (dead.length || stillListed.size) process.exit(1);
