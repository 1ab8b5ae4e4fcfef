/**
 * How this site takes payments (root data `payments`): while no provider is configured the buy
 * buttons are off and say why; while payments go to the sandbox, checkout and order pages say
 * plainly that they are test payments.
 */
import { PAYMENTS_OFF_MESSAGE, SANDBOX_PAYMENT_NOTICE } from "../../../shared/contracts/payments";
import { useRootData } from "../../lib/root-data";

/** Why buying is off on this site (shown beside the disabled buy buttons), or null. */
export function useBuyingOff(): string | null {
  return useRootData().payments === "off" ? PAYMENTS_OFF_MESSAGE : null;
}

/** The reason beside a disabled buy button. */
export function BuyingOffNote({ className = "buy-box__note" }: { className?: string }) {
  const off = useBuyingOff();
  return off ? (
    <p className={className} data-testid="buying-off">
      {off}
    </p>
  ) : null;
}

/** 测试支付: on the payment page and the orders pages while the sandbox takes the payments. */
export function SandboxPaymentBanner() {
  if (useRootData().payments !== "sandbox") return null;
  return (
    <div className="notice notice--warning" role="note" data-testid="sandbox-payment-banner">
      {SANDBOX_PAYMENT_NOTICE}
    </div>
  );
}
