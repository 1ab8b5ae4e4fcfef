/**
 * For tests of pages that state the site's rules in words (agreements, privacy, the guide):
 * the rule constants get numbers that differ from today's, so a page that passes reads them
 * from the rules rather than from its own text. Import this first, before the pages.
 */
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router-dom";
import { vi } from "vitest";

vi.mock("../../shared/contracts/orders", async (original) => ({
  ...(await original<object>()),
  ORDER_PAY_MINUTES: 45,
  REFUND_DAYS: 9,
}));
vi.mock("../../shared/contracts/groups", async (original) => ({
  ...(await original<object>()),
  GROUP_PAY_MINUTES: 12,
}));
vi.mock("../../shared/contracts/me", async (original) => ({
  ...(await original<object>()),
  DELETION_COOLING_DAYS: 21,
}));
vi.mock("../lib/root-data", () => ({
  useRootData: () => ({ siteName: "墨池课堂", serviceEmail: "kefu@example.com", servicePhone: "400-000-0000" }),
}));
vi.mock("../components/Page", () => ({ Page: ({ children }: { children?: ReactNode }) => <main>{children}</main> }));

/** The page's text as the server renders it, without tags. */
export const pageText = (page: ReactNode) =>
  renderToString(<MemoryRouter>{page}</MemoryRouter>)
    .replace(/<[^>]+>/g, "")
    .replace(/<!-- -->/g, "");
