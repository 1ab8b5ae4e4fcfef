/**
 * What the built browser bundle loads before hydration (decision 048), read from the client
 * build (dist/client/.vite/manifest.json and the chunks themselves): the entry and every chunk it
 * imports statically are on every page, so the route groups (/my, /teach, /admin, the test
 * fixtures), the pages' descriptions and the heavy libraries must not be in them; a route group's
 * page gets its group's module as a modulepreload from the server.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import request from "supertest";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createSession, sessionCookieName } from "../../api/modules/auth/sessions";
import { PASSWORD_HINT } from "../../client/components/form/fields";
import { PAGE_DESCRIPTIONS } from "../../shared/page-descriptions";
import { adminRoute } from "../../shared/route-groups/admin";
import { fixtureRoute } from "../../shared/route-groups/fixtures";
import { myRoute } from "../../shared/route-groups/my";
import { teachRoute } from "../../shared/route-groups/teach";
import { walkRoutes } from "../../shared/routes";
import { rawGet } from "../raw-get";
import { BROWSER_UA, clientDir, testApp } from "./helpers";

interface ManifestChunk {
  file: string;
  imports?: string[];
}
const ENTRY = "client/entry-client.tsx";
const manifest = JSON.parse(readFileSync(path.join(clientDir, ".vite/manifest.json"), "utf8")) as Record<
  string,
  ManifestChunk
>;

/** The files a manifest key loads before it runs: its chunk and every static import, recursively. */
function staticClosure(key: string, out = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || out.has(chunk.file)) return out;
  out.add(chunk.file);
  for (const imp of chunk.imports ?? []) staticClosure(imp, out);
  return out;
}

const entryFiles = [...staticClosure(ENTRY)];
const entryCode = entryFiles.map((file) => ({ file, code: readFileSync(path.join(clientDir, file), "utf8") }));

/** A string literal in minified code, whichever quotes the minifier chose. */
const literal = (text: string) => new RegExp(`["'\`]${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}["'\`]`);

const groups = { my: myRoute, teach: teachRoute, admin: adminRoute, fixtures: fixtureRoute };

describe("the entry and the chunks every page loads", () => {
  it("hold none of the route groups' definitions, pages or modules", () => {
    for (const [name, def] of Object.entries(groups)) {
      const groupKey = `client/routing/groups/${name}.ts`;
      expect(manifest[groupKey], groupKey).toBeDefined();
      expect(entryFiles, groupKey).not.toContain(manifest[groupKey]!.file);
      for (const { def: page } of walkRoutes([def])) {
        const pageKey = `client/features/${page.page}.page.tsx`;
        expect(manifest[pageKey], pageKey).toBeDefined();
        expect(entryFiles, pageKey).not.toContain(manifest[pageKey]!.file);
        // A group's definitions name its pages ("admin/orders/Orders") and its children ("admin.orders").
        const names = page.id.includes(".") ? [page.page, page.id] : [page.page];
        for (const { file, code } of entryCode) {
          for (const name of names) expect(literal(name).test(code), `${name} in ${file}`).toBe(false);
        }
      }
    }
  });

  it("hold none of the pages' descriptions", () => {
    for (const [id, text] of Object.entries(PAGE_DESCRIPTIONS)) {
      for (const { file, code } of entryCode) expect(code.includes(text), `${id}'s description in ${file}`).toBe(false);
    }
  });

  it("hold no mobile site banner: it loads for a phone's visitor only", () => {
    for (const { file, code } of entryCode)
      expect(code.includes("手机访问体验更好"), `the banner in ${file}`).toBe(false);
  });

  it("hold no zod, hls.js, vconsole or QR encoder", () => {
    for (const { file, code } of entryCode) {
      expect(/ZodError|\$ZodType/.test(code), `zod in ${file}`).toBe(false);
      expect(/hls\.js|Hls\.isSupported|new Hls\(/.test(code), `hls.js in ${file}`).toBe(false);
      expect(/vConsole|VConsole/.test(code), `vconsole in ${file}`).toBe(false);
      expect(/QR Code|qrcode/i.test(code), `QR encoder in ${file}`).toBe(false);
    }
  });

  it("hold the router without its components this site does not use: its Link, NavLink and Form (decision 055)", () => {
    const all = entryCode.map(({ code }) => code).join("\n");
    expect(all, "the router").toContain(
      "You should call navigate() in a React.useEffect(), not when your component is first rendered.",
    );
    // Both of the router's own Link and Form write this attribute; ours do not.
    expect(literal("data-discover").test(all), "the router's Link or Form").toBe(false);
    expect(all.includes("useFormAction must be used inside a RouteContext"), "the router's Form").toBe(false);
    // The router shares the React chunk, rather than a chunk of its own (a fourth request on every page).
    expect(entryFiles.filter((file) => /chunk-/.test(file))).toEqual([]);
  });

  it("the /my overview loads zod only with its requests, not before hydration", () => {
    for (const key of [
      "client/routing/groups/my.ts",
      "client/features/my/MyLayout.page.tsx",
      "client/features/my/Overview.page.tsx",
    ]) {
      for (const file of staticClosure(key)) {
        const code = readFileSync(path.join(clientDir, file), "utf8");
        expect(/ZodError|\$ZodType/.test(code), `zod in ${file}, loaded by ${key}`).toBe(false);
      }
    }
  });
});

/** The code of every chunk a manifest key loads before it runs. */
const closureCode = (key: string) =>
  [...staticClosure(key)].map((file) => ({ file, code: readFileSync(path.join(clientDir, file), "utf8") }));

const ZOD = /ZodError|\$ZodType/;

describe("what pages load before hydration (decision 050)", () => {
  it("the entry's page imports and their preload lists are a chunk of their own, not in the entry", () => {
    const pagesKey = "client/routing/entry-pages.ts";
    expect(manifest[pagesKey], pagesKey).toBeDefined();
    expect(entryFiles).not.toContain(manifest[pagesKey]!.file);
    for (const page of ["about/About", "course/CourseDetail", "home/Home", "my/Logout"]) {
      const file = manifest[`client/features/${page}.page.tsx`]!.file;
      const name = path.basename(file);
      for (const { file: chunk, code } of entryCode)
        expect(code.includes(name), `${name} named in ${chunk}`).toBe(false);
    }
  });

  it("a route group's module names none of its pages' files: its page map is a chunk of its own (decision 054)", () => {
    for (const [name, def] of Object.entries(groups)) {
      const groupKey = `client/routing/groups/${name}.ts`;
      const mapKey = `client/routing/group-pages/${name}.ts`;
      expect(manifest[mapKey], mapKey).toBeDefined();
      const mapCode = readFileSync(path.join(clientDir, manifest[mapKey]!.file), "utf8");
      for (const { def: page } of walkRoutes([def])) {
        const file = path.basename(manifest[`client/features/${page.page}.page.tsx`]!.file);
        expect(mapCode.includes(file), `${file} in ${mapKey}`).toBe(true);
        for (const { file: chunk, code } of closureCode(groupKey))
          expect(code.includes(file), `${file} named in ${chunk}, loaded by ${groupKey}`).toBe(false);
      }
    }
  });

  // The dialogs a click opens, each loaded the first time it opens.
  const onClick: Record<string, string[]> = {
    "client/features/course/CourseDetail.page.tsx": [
      "client/components/gifts/GiftDialog.tsx",
      "client/components/gifts/GiveawayDialog.tsx",
      "client/components/groupbuy/GroupBuyDialog.tsx",
      "client/components/commerce/AddressDialog.tsx",
    ],
    "client/features/books/BookDetail.page.tsx": ["client/components/commerce/AddressDialog.tsx"],
    "client/features/commodity/Commodity.page.tsx": ["client/components/commerce/AddressDialog.tsx"],
    "client/features/my/Order.page.tsx": ["client/features/my/order/OrderDialog.tsx"],
    // 交作业 / 重新提交: photo uploads, checks and the modal frame.
    "client/features/my/Homework.page.tsx": ["client/components/homework/SubmitDialog.tsx"],
    "client/features/video/VideoDetail.page.tsx": ["client/components/homework/SubmitDialog.tsx"],
  };

  it("the course, book, stationery and order pages load their dialogs on first use, not before hydration", () => {
    for (const [page, dialogs] of Object.entries(onClick)) {
      const files = staticClosure(page);
      for (const dialog of dialogs) {
        expect(manifest[dialog], dialog).toBeDefined();
        expect([...files], `${dialog} loaded by ${page}`).not.toContain(manifest[dialog]!.file);
      }
    }
    // The course page keeps no modal frame of its own (the gift, group-buy and giveaway dialogs').
    for (const { file, code } of closureCode("client/features/course/CourseDetail.page.tsx")) {
      expect(literal("modal__dialog").test(code), `the modal in ${file}`).toBe(false);
    }
  });

  it("the course, book and stationery pages load the order's POST and the failure texts with the click, not before hydration (decision 057)", () => {
    const POST = literal("Idempotency-Key");
    const FAILURES = literal("请求超时，请稍后重试");
    // The payment page posts at once and describes failures from the start: both are in its first load.
    const payment = closureCode("client/features/payment/Payment.page.tsx");
    expect(payment.some(({ code }) => POST.test(code))).toBe(true);
    expect(payment.some(({ code }) => FAILURES.test(code))).toBe(true);
    for (const page of [
      "client/features/course/CourseDetail.page.tsx",
      "client/features/books/BookDetail.page.tsx",
      "client/features/commodity/Commodity.page.tsx",
    ]) {
      for (const { file, code } of closureCode(page)) {
        expect(POST.test(code), `the idempotent POST in ${file}, loaded by ${page}`).toBe(false);
        expect(FAILURES.test(code), `the failure descriptions in ${file}, loaded by ${page}`).toBe(false);
      }
    }
  });

  it("the model characters come without the brush strokes' outline code (perfect-freehand)", () => {
    const FREEHAND = /simulatePressure/;
    // The teacher's review canvas draws strokes: the check finds the library where it is.
    const review = closureCode("client/routing/groups/teach.ts").concat(
      closureCode("client/features/teach/HomeworkReview.page.tsx"),
    );
    expect(review.some(({ code }) => FREEHAND.test(code))).toBe(true);
    for (const page of ["client/features/video/VideoDetail.page.tsx", "client/features/my/Homework.page.tsx"]) {
      for (const { file, code } of closureCode(page))
        expect(FREEHAND.test(code), `perfect-freehand in ${file}, loaded by ${page}`).toBe(false);
    }
  });

  it("the lesson page's outline, homework panel, course card and end screen are not in its first load (decision 059)", () => {
    const parts: Record<string, string> = {
      "client/features/video/LessonOutline.tsx": "课程目录",
      "client/features/video/LessonHomework.tsx": "本课作业",
      "client/features/video/LessonCourse.tsx": "查看课程详情",
      "client/features/video/LessonEnd.tsx": "取消自动播放",
    };
    const page = closureCode("client/features/video/VideoDetail.page.tsx");
    for (const [part, text] of Object.entries(parts)) {
      expect(
        closureCode(part).some(({ code }) => code.includes(text)),
        `${text} in ${part}`,
      ).toBe(true);
      for (const { file, code } of page)
        expect(code.includes(text), `${text} in ${file}, loaded by the page`).toBe(false);
    }
  });

  it("a page that shows only a form's alert loads none of the fields' code", () => {
    const FIELDS = literal(PASSWORD_HINT);
    expect(closureCode("client/features/my/Security.page.tsx").some(({ code }) => FIELDS.test(code))).toBe(true);
    for (const page of ["client/features/my/Homework.page.tsx", "client/features/my/Packs.page.tsx"]) {
      for (const { file, code } of closureCode(page))
        expect(FIELDS.test(code), `the form fields in ${file}, loaded by ${page}`).toBe(false);
    }
  });

  it("/my/order and /my/security load no zod before hydration: their checks come with first use", () => {
    for (const page of ["client/features/my/Order.page.tsx", "client/features/my/Security.page.tsx"]) {
      for (const key of ["client/routing/groups/my.ts", "client/features/my/MyLayout.page.tsx", page]) {
        for (const { file, code } of closureCode(key))
          expect(ZOD.test(code), `zod in ${file}, loaded by ${page}`).toBe(false);
      }
    }
  });
});

describe("modulepreload of a route group's page", () => {
  type Express = Awaited<ReturnType<typeof testApp>>["app"];
  let app: Express;
  beforeAll(async () => {
    ({ app } = await testApp());
  });

  const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" href="\/([^"]+)"/g)].map((m) => m[1]);

  it("a page of a group preloads the group's module and its page; other pages do not", async () => {
    const group = manifest["client/routing/groups/fixtures.ts"]!.file;
    const page = manifest["client/features/fixture/Fast.page.tsx"]!.file;
    const fixture = await request(app).get("/__test/fast").set("User-Agent", BROWSER_UA);
    expect(fixture.status).toBe(200);
    expect(preloads(fixture.text)).toEqual(expect.arrayContaining([group, page]));

    const about = await request(app).get("/about").set("User-Agent", BROWSER_UA);
    expect(about.status).toBe(200);
    for (const name of Object.keys(groups)) {
      expect(preloads(about.text)).not.toContain(manifest[`client/routing/groups/${name}.ts`]!.file);
    }
  });

  it("a signed-in visitor's page draws the notices button but leaves its code out of the preloads", async () => {
    const { app: signedInApp, services, dispose } = await testApp();
    try {
      const user = await services!.database.db
        .insertInto("users")
        .values({ phone: "13900000054", nickname: "通知测试", role: "learner" })
        .returning("id")
        .executeTakeFirstOrThrow();
      const token = await createSession(services!.database, user.id, { userAgent: "vitest", ip: "127.0.0.1" });
      const cookie = `${sessionCookieName(services!.api.settings.cookies)}=${token}`;
      const res = await request(signedInApp).get("/my").set("User-Agent", BROWSER_UA).set("Cookie", cookie);
      expect(res.status).toBe(200);
      expect(res.text).toMatch(
        /class="notices-popover__summary"[^>]*aria-label="通知，0 条未读"|aria-label="通知，0 条未读"[^>]*class="notices-popover__summary"/,
      );
      expect(preloads(res.text)).toContain(manifest["client/routing/groups/my.ts"]!.file);
      expect(preloads(res.text)).not.toContain(manifest["client/components/NoticesPopover.tsx"]!.file);
    } finally {
      await dispose();
    }
  });

  it("gives the browser the address of each module of the page, which it imports to hydrate", async () => {
    const res = await request(app).get("/about").set("User-Agent", BROWSER_UA);
    const boot = /<script id="__boot" type="application\/json"[^>]*>([\s\S]*?)<\/script>/.exec(res.text)?.[1] ?? "";
    const modules = (JSON.parse(boot) as { root: { assets: { modules: Record<string, string> } } }).root.assets.modules;
    const key = "client/features/about/About.page.tsx";
    expect(modules).toEqual({ [key]: `/${manifest[key]!.file}` });
    expect(preloads(res.text)).toContain(manifest[key]!.file);
  });

  it("sends the page's description in the boot payload, as rendered in the head", async () => {
    const res = await request(app).get("/about").set("User-Agent", BROWSER_UA);
    const boot = /<script id="__boot" type="application\/json"[^>]*>([\s\S]*?)<\/script>/.exec(res.text)?.[1] ?? "";
    const sent = (JSON.parse(boot) as { root: { routeDescription?: string } }).root.routeDescription;
    expect(sent).toBe(PAGE_DESCRIPTIONS.about);
    expect(res.text).toContain(`<meta name="description" content="${PAGE_DESCRIPTIONS.about}"/>`);
  });
});

describe("the build's compressed copies (decision 056)", () => {
  const assetsDir = path.join(clientDir, "assets");
  const scripts = readdirSync(assetsDir).filter((f) => /\.(js|css|svg)$/.test(f));

  it("every script, style and SVG has a brotli and a gzip copy of the same bytes, unless a copy would not be smaller", () => {
    let small = 0;
    for (const file of scripts) {
      const bytes = readFileSync(path.join(assetsDir, file));
      for (const [suffix, decode] of [
        [".br", brotliDecompressSync],
        [".gz", gunzipSync],
      ] as const) {
        const copy = path.join(assetsDir, file + suffix);
        if (!existsSync(copy)) {
          // Only a tiny file may go without: its copy would have been no smaller.
          expect(bytes.length, `${file}${suffix} missing`).toBeLessThan(200);
          continue;
        }
        expect(decode(readFileSync(copy)).equals(bytes), file + suffix).toBe(true);
        expect(readFileSync(copy).length, file + suffix).toBeLessThan(bytes.length);
      }
      if (bytes.length < 1024 && existsSync(path.join(assetsDir, `${file}.gz`))) small += 1;
    }
    // Chunks under compression's 1 KiB threshold have copies too.
    expect(small).toBeGreaterThan(20);
  });

  it("the server sends the entry's copies: brotli to a browser, zopfli gzip (smaller than level 9) to gzip only", async () => {
    const entry = manifest[ENTRY]!.file;
    const plain = readFileSync(path.join(clientDir, entry));
    const { app, dispose } = await testApp();
    const server = app.listen(0, "127.0.0.1");
    if (!server.listening) await new Promise((r) => server.once("listening", r));
    const port = (server.address() as AddressInfo).port;
    const raw = (encoding: string) => rawGet(`http://127.0.0.1:${port}/${entry}`, { "accept-encoding": encoding });
    onTestFinished(async () => {
      await new Promise((r) => server.close(r));
      await dispose();
    });
    const br = await raw("gzip, deflate, br, zstd");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.body.equals(readFileSync(path.join(clientDir, `${entry}.br`)))).toBe(true);
    const gz = await raw("gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.body.equals(readFileSync(path.join(clientDir, `${entry}.gz`)))).toBe(true);
    expect(gz.body.length).toBeLessThan(gzipSync(plain, { level: 9 }).length);
  });
});
