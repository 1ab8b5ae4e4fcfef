/**
 * The imports of the my route group's pages, with the bundler's preload list of each: a chunk of
 * its own, so the group's first page does not load the others' file lists (decision 054).
 */
import type { PageModule } from "../routes";

export const pages: Record<string, () => Promise<PageModule>> = import.meta.glob<PageModule>(
  "../../features/my/**/*.page.tsx",
);
