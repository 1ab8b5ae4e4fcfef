/**
 * Outgoing SMS and e-mail. The default transport is the development outbox: messages are kept
 * under DATA_DIR (and readable at /dev/outbox outside production) so a local user can log in.
 * Logs name the channel, purpose and a masked address, never the text.
 */
import { randomUUID } from "node:crypto";
import { appendFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { Logger } from "pino";

export interface OutgoingMessage {
  id: string;
  channel: "sms" | "email";
  to: string;
  subject?: string;
  text: string;
  purpose: string;
  /**
   * The one-time code inside `text`, for transports that send templates (Aliyun SMS) rather
   * than text. Kept by the outbox, never logged.
   */
  code?: string;
  createdAt: string;
}

export type MessageDraft = Omit<OutgoingMessage, "id" | "createdAt">;

export interface MessageTransport {
  send(message: OutgoingMessage): Promise<void>;
}

export function maskAddress(to: string): string {
  if (to.includes("@")) {
    const [name = "", domain = ""] = to.split("@");
    return `${name.slice(0, 1)}***@${domain}`;
  }
  return to.length >= 7 ? `${to.slice(0, 3)}****${to.slice(-4)}` : "****";
}

/** Keeps messages in a JSON-lines file and the latest 200 in memory. */
export class DevOutbox implements MessageTransport {
  private readonly recent: OutgoingMessage[] = [];
  private readonly file: string | null;

  constructor(dataDir: string | null) {
    if (dataDir) {
      mkdirSync(path.join(dataDir, "outbox"), { recursive: true });
      this.file = path.join(dataDir, "outbox", "messages.jsonl");
    } else this.file = null;
  }

  async send(message: OutgoingMessage) {
    this.recent.push(message);
    if (this.recent.length > 200) this.recent.shift();
    if (this.file) appendFileSync(this.file, `${JSON.stringify(message)}\n`);
  }

  /** Newest first. */
  list(): OutgoingMessage[] {
    return [...this.recent].reverse();
  }
}

/**
 * Channels with nowhere to deliver to, each with the setting that would give it somewhere: a
 * site whose outbox nobody may read (`pro`) and that has no provider for the channel.
 */
export type UndeliverableChannels = Partial<Record<OutgoingMessage["channel"], string>>;

export class Messenger {
  constructor(
    private readonly transports: { sms: MessageTransport; email: MessageTransport },
    private readonly logger: Logger,
    private readonly undeliverable: UndeliverableChannels = {},
  ) {}

  /** The variable to set when `channel` delivers nothing (e.g. SMS_PROVIDER), else null. */
  missingSetting(channel: OutgoingMessage["channel"]): string | null {
    return this.undeliverable[channel] ?? null;
  }

  /** Sends the message; on a channel that delivers nothing it says so in the log instead. */
  async send(draft: MessageDraft): Promise<void> {
    const missing = this.missingSetting(draft.channel);
    if (missing) {
      this.logger.warn(
        { channel: draft.channel, purpose: draft.purpose, to: maskAddress(draft.to), setting: missing },
        `message not sent: nothing delivers ${draft.channel} here, set ${missing}`,
      );
      return;
    }
    const message: OutgoingMessage = { ...draft, id: randomUUID(), createdAt: new Date().toISOString() };
    await this.transports[draft.channel].send(message);
    this.logger.info({ channel: draft.channel, purpose: draft.purpose, to: maskAddress(draft.to) }, "message sent");
  }
}
