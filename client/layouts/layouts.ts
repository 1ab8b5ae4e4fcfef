import type { ComponentType } from "react";
import type { LayoutName } from "../../shared/route-def";
import { CleanLayout } from "./CleanLayout";
import { DefaultLayout } from "./DefaultLayout";
import { TestLayout } from "./TestLayout";

/**
 * default: header, breadcrumb, footer and floating buttons (most pages).
 * clean: logo bar and a thin footer only: pages opened from shares, webviews or e-mails
 *   (agreements, share pages, the browser notice, logout).
 * test: bare frame for the automated-test fixtures under /__test (TEST_FIXTURES=1 only).
 */
export const layouts: Record<LayoutName, ComponentType> = {
  default: DefaultLayout,
  clean: CleanLayout,
  test: TestLayout,
};
