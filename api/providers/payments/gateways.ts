/** The payment gateways this site can use, from the registered settings. */
import { PAYMENTS_OFF_ORDER_MESSAGE } from "../../../shared/contracts/payments";
import type { ApiContext } from "../../context";
import { ApiError } from "../../http";
import { AlipayGateway } from "./alipay";
import type { GatewayName, PaymentGateway } from "./gateway";
import { SandboxGateway } from "./sandbox";
import { paymentSettingsOf } from "./settings";
import { WechatPayGateway } from "./wechat-pay";

const cache = new WeakMap<ApiContext, Map<string, PaymentGateway>>();

/** The methods the payer may choose: the sandbox when it is the provider, real ones when configured. */
export function availableMethods(ctx: ApiContext): GatewayName[] {
  const s = paymentSettingsOf(ctx);
  const methods: GatewayName[] = [];
  if (s.provider === "sandbox") methods.push("sandbox");
  if (s.wechat && s.provider !== "sandbox") methods.push("wechat");
  if (s.alipay && s.provider !== "sandbox") methods.push("alipay");
  return methods;
}

/** Orders are refused while no payment method is on offer (pro without a configured provider). */
export function requireBuying(ctx: ApiContext): void {
  if (availableMethods(ctx).length === 0) throw new ApiError(403, "payments_off", PAYMENTS_OFF_ORDER_MESSAGE);
}

/** The gateway for a method (also for orders paid earlier through it), or null if it is not configured. */
export function gatewayFor(ctx: ApiContext, name: string): PaymentGateway | null {
  let map = cache.get(ctx);
  if (!map) {
    map = new Map();
    cache.set(ctx, map);
  }
  const known = map.get(name);
  if (known) return known;
  const s = paymentSettingsOf(ctx);
  let gateway: PaymentGateway | null = null;
  if (name === "sandbox") gateway = new SandboxGateway(ctx.database, () => ctx.now());
  else if (name === "wechat" && s.wechat) gateway = new WechatPayGateway(s.wechat, () => ctx.now());
  else if (name === "alipay" && s.alipay) gateway = new AlipayGateway(s.alipay, () => ctx.now());
  if (gateway) map.set(name, gateway);
  return gateway;
}
