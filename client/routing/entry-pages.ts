/**
 * The imports of the entry's pages (every page module outside the route groups' folders, and
 * /my/logout), with the bundler's preload list of each: a chunk of its own that the browser
 * loads after hydration, not before (decision 050). The first page is imported by the address
 * the server gives (`root.assets.modules`).
 */
import { byPage, type PageModule } from "./routes";

export const entryPages = byPage({
  ...import.meta.glob<PageModule>([
    "../features/**/*.page.tsx",
    "!../features/my/**",
    "!../features/teach/**",
    "!../features/admin/**",
    "!../features/fixture/**",
  ]),
  ...import.meta.glob<PageModule>("../features/my/Logout.page.tsx"),
});
