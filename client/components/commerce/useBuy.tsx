/**
 * Buying from a course, book or stationery page: `useBuy(item)` gives the buy button's handler
 * and the dialogs it needs — the login dialog for a visitor, the shipping address for physical
 * goods (pick a saved one or add one) — then creates the order (or gets back the open one for
 * the same item) and goes to /payment?order=….
 */
import { type ReactNode, useState } from "react";
import { useNavigate } from "react-router-dom";
import { useRootData } from "../../lib/root-data";
import { LoginDialog } from "../LoginDialog";
import { lazyDialog } from "../../lib/lazy-dialog";
import type { BuyItem } from "./buy-item";
import { useMutation } from "../../lib/mutation";
import { useBuyingOff } from "./payments-mode";
import "./commerce.css";

// The address dialog (physical goods only) loads the first time it opens (decision 050).
const { Dialog: AddressDialog, preload: preloadAddressDialog } = lazyDialog(() =>
  import("./AddressDialog").then((m) => m.AddressDialog),
);

/**
 * Contracts load with the first request that needs them, not with the page (decision 030); so
 * does the ordering POST's key handling, inside useMutation (decision 057).
 */
const ordersContract = () => import("../../../shared/contracts/orders");

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
  const [loginOpen, setLoginOpen] = useState(false);
  const [addressOpen, setAddressOpen] = useState(false);
  const order = useMutation({ idempotent: true });
  const physical = item.itemType !== "course";

  const create = (addressId?: number) =>
    order.send("/api/orders", {
      body: {
        itemType: item.itemType,
        itemId: item.itemId,
        quantity: item.quantity ?? 1,
        ...(item.skuId !== undefined ? { skuId: item.skuId } : {}),
        ...(addressId !== undefined ? { addressId } : {}),
      },
      schema: ordersContract().then((m) => m.createOrderResultSchema),
      onSuccess: ({ order: created }) => {
        setAddressOpen(false);
        void navigate(`/payment?order=${created.orderNo}`);
      },
    });

  const buy = () => {
    order.setProblem(null);
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
          busy={order.busy}
          problem={order.problem}
          onClose={() => setAddressOpen(false)}
          onChosen={(id) => void create(id)}
        />
      ) : null}
    </>
  );
  const preload = () => {
    if (physical && viewer) preloadAddressDialog();
  };
  const problem = !addressOpen ? (order.problem?.message ?? null) : null;
  return { buy, busy: order.busy, problem, off, preload, dialogs };
}
