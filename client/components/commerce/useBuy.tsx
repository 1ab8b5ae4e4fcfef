/**
 * Buying from a course, book or stationery page: `useBuy(item)` gives the buy button's handler
 * and the dialogs it needs — the login dialog for a visitor, the shipping address for physical
 * goods (pick a saved one or add one) — then creates the order (or gets back the open one for
 * the same item) and goes to /payment?order=….
 */
import { type ReactNode, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { useRootData } from "../../lib/root-data";
import { LoginDialog } from "../LoginDialog";
import type { Problem } from "../../lib/problem";
import { describeProblemLater } from "../../lib/problem-later";
import { lazyDialog } from "../../lib/lazy-dialog";
import { withChunkReload } from "../../routing/chunk-reload";
import type { BuyItem } from "./buy-item";
import { useBuyingOff } from "./payments-mode";
import type { IdempotencyKeyHolder } from "../../lib/idempotent-post";
import "./commerce.css";

// The address dialog (physical goods only) loads the first time it opens (decision 050).
const { Dialog: AddressDialog, preload: preloadAddressDialog } = lazyDialog(() =>
  import("./AddressDialog").then((m) => m.AddressDialog),
);

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const ordersContract = () => import("../../../shared/contracts/orders");
/** So does the ordering POST: it runs on a click only (decision 057). */
const idempotentPost = withChunkReload(() => import("../../lib/idempotent-post"));

export function useBuy(item: BuyItem): {
  buy: () => void;
  busy: boolean;
  problem: string | null;
  /** Why buying is switched off on this site (no payment provider): the button is disabled with it. */
  off: string | null;
  /** Starts loading the dialog a click will open, ahead of it (the buy button's hover or focus). */
  preload: () => void;
  dialogs: ReactNode;
} {
  const { viewer } = useRootData();
  const off = useBuyingOff();
  const navigate = useNavigate();
  const orderKey = useRef<IdempotencyKeyHolder["current"]>(null);
  const [loginOpen, setLoginOpen] = useState(false);
  const [addressOpen, setAddressOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const physical = item.itemType !== "course";

  async function create(addressId?: number) {
    setBusy(true);
    setProblem(null);
    try {
      const body = {
        itemType: item.itemType,
        itemId: item.itemId,
        quantity: item.quantity ?? 1,
        ...(item.skuId !== undefined ? { skuId: item.skuId } : {}),
        ...(addressId !== undefined ? { addressId } : {}),
      };
      const { postIdempotent } = await idempotentPost();
      const { order } = await postIdempotent(
        orderKey,
        "/api/orders",
        body,
        ordersContract().then((m) => m.createOrderResultSchema),
      );
      setAddressOpen(false);
      void navigate(`/payment?order=${order.orderNo}`);
    } catch (err) {
      setProblem(await describeProblemLater(err));
    } finally {
      setBusy(false);
    }
  }

  const buy = () => {
    setProblem(null);
    if (off) return;
    if (!viewer) {
      setLoginOpen(true);
      return;
    }
    if (physical) setAddressOpen(true);
    else void create();
  };

  const dialogs = (
    <>
      {!viewer ? <LoginDialog open={loginOpen} onClose={() => setLoginOpen(false)} /> : null}
      {physical && viewer ? (
        <AddressDialog
          open={addressOpen}
          item={item}
          busy={busy}
          problem={problem}
          onClose={() => setAddressOpen(false)}
          onChosen={(id) => void create(id)}
        />
      ) : null}
    </>
  );
  const preload = () => {
    if (physical && viewer) preloadAddressDialog();
  };
  return { buy, busy, problem: !addressOpen ? (problem?.message ?? null) : null, off, preload, dialogs };
}
