/**
 * Sending one-time codes for the e-mail, retrieve-account and device flows, without telling
 * anyone whether an address has an account: a code is issued either way (so cooldowns and
 * caps behave alike), but only a rightful recipient gets it; an e-mail that cannot be used
 * gets a note saying why instead. Messages leave in the background so that both cases take
 * the same time to answer.
 */
import type { ApiContext } from "../../context";
import { type MessageDraft, maskAddress } from "../../providers/messages";
import { type Channel, OTP, issueCode } from "./otp";

export type FlowPurpose = "login" | "register" | "reset" | "device";

const PURPOSE_TEXT: Record<FlowPurpose, string> = {
  login: "登录",
  register: "注册账号",
  reset: "找回账号并重置密码",
  device: "确认在新设备上登录",
};

/** Why an address gets a note rather than a code. */
export type CodeRefusal = "login_unregistered" | "register_taken" | "reset_unregistered";

export function codeMessage(siteName: string, purpose: FlowPurpose, code: string): { subject: string; text: string } {
  const minutes = OTP.ttlMs / 60_000;
  return {
    subject: `${siteName}验证码`,
    text:
      `【${siteName}】验证码 ${code}，用于${PURPOSE_TEXT[purpose]}，${minutes} 分钟内有效。` +
      "请勿告诉他人；如非本人操作，请忽略本消息。",
  };
}

export function refusalMessage(siteName: string, refusal: CodeRefusal): { subject: string; text: string } {
  const text: Record<CodeRefusal, string> = {
    login_unregistered: `有人在${siteName}申请用此邮箱登录，但此邮箱还没有注册账号。如需使用，请在登录窗口选择“注册”。`,
    register_taken: `有人在${siteName}申请用此邮箱注册，但此邮箱已经注册过账号，可直接登录；忘记密码可选择“找回账号”。`,
    reset_unregistered: `有人在${siteName}申请用此邮箱找回账号，但此邮箱没有绑定任何账号。`,
  };
  return {
    subject: `${siteName}账号提醒`,
    text: `【${siteName}】${text[refusal]}如非本人操作，请忽略本消息。`,
  };
}

/** Starts sending and returns at once; a failure is logged without the text (it may hold a code). */
export function dispatch(ctx: ApiContext, draft: MessageDraft): void {
  ctx.messenger.send(draft).catch((err: unknown) => {
    ctx.logger.error(
      {
        channel: draft.channel,
        purpose: draft.purpose,
        to: maskAddress(draft.to),
        error: err instanceof Error ? err.name : "unknown",
      },
      "message not sent",
    );
  });
}

/**
 * Issues a code for `target` and sends it when `deliver` is true. Otherwise the code goes
 * nowhere (nobody can use it) and an e-mail `refusal` note is sent in its place, if given.
 */
export async function sendCode(
  ctx: ApiContext,
  request: {
    channel: Channel;
    target: string;
    purpose: FlowPurpose;
    ip: string;
    userId: number | null;
    deliver: boolean;
    refusal?: CodeRefusal;
  },
): Promise<void> {
  const { channel, target, purpose } = request;
  const code = await issueCode(ctx, { channel, target, purpose, ip: request.ip, userId: request.userId });
  if (request.deliver) {
    const { subject, text } = codeMessage(ctx.settings.siteName, purpose, code);
    dispatch(ctx, { channel, to: target, purpose, text, code, ...(channel === "email" ? { subject } : {}) });
  } else if (request.refusal && channel === "email") {
    dispatch(ctx, { channel, to: target, purpose, ...refusalMessage(ctx.settings.siteName, request.refusal) });
  }
}
