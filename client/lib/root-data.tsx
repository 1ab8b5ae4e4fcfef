/**
 * Per-document data every page needs (site name, build info, asset links, the viewer). The
 * server renders it into the document once; the browser reads it back before hydrating.
 */
import { createContext, useContext } from "react";
import type { BuildInfo } from "../../shared/build-info";
import type { PaymentsMode } from "../../shared/contracts/payments";
import type { Viewer } from "../../shared/contracts/viewer";

export interface RootData {
  siteName: string;
  publicOrigin: string;
  build: BuildInfo;
  /**
   * The page's stylesheets (inlined in the head), its font stylesheets (linked, switched on once
   * the page has loaded) and its module preloads (decision 049); `modules`: the URL of each module
   * the page was rendered with, by manifest key, which the browser imports to hydrate (decision 050).
   */
  assets: { css: string[]; fonts: string[]; modulepreload: string[]; modules: Record<string, string> };
  viewer: Viewer | null;
  mobileSiteUrl: string | null;
  /** SVG markup of the QR code that points at the mobile site (made on the server). */
  mobileSiteQrSvg: string | null;
  servicePhone: string;
  serviceEmail: string;
  /** ICP licence number shown in the footer (ICP_NUMBER), linked to the MIIT registry. */
  icpNumber: string | null;
  /** Search engines' site verification codes (BAIDU_SITE_VERIFICATION, BING_SITE_VERIFICATION). */
  siteVerification: { baidu: string | null; bing: string | null };
  devtoolsBlock: boolean;
  fixtures: boolean;
  /** How payments are taken: `off` disables the buy buttons, `sandbox` shows the 测试支付 banner. */
  payments: PaymentsMode;
  /** The description of the page rendered (shared/page-descriptions.ts), for its hydration. */
  routeDescription?: string;
}

export const BOOT_ELEMENT_ID = "__boot";

export interface DocumentContextValue {
  root: RootData;
  /** The CSP nonce of this response ("" in the browser, which hides nonces from the DOM). */
  nonce: string;
  /**
   * The boot payload `{ root, router }` as escaped JSON: rendered once into the document and
   * read back verbatim by the browser, so hydration sees the same text.
   */
  boot: string;
  /**
   * The text of each stylesheet in `root.assets.css`, inlined in the head. Only the server has
   * it; the browser reads the same text back from the document (it is not in the boot payload).
   */
  styles?: Record<string, string>;
}

const DocumentContext = createContext<DocumentContextValue | null>(null);
export const DocumentProvider = DocumentContext.Provider;

export function useDocument(): DocumentContextValue {
  const value = useContext(DocumentContext);
  if (!value) throw new Error("useDocument outside DocumentProvider");
  return value;
}

export function useRootData(): RootData {
  return useDocument().root;
}
