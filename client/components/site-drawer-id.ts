/** The drawer's element id, named by the header's menu button (aria-controls). */
export const SITE_DRAWER_ID = "site-drawer";
