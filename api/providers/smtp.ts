/**
 * E-mail through an SMTP server (nodemailer), configured by SMTP_URL
 * (`smtps://user:pass@host:465` or `smtp://host:587`, STARTTLS when offered) and SMTP_FROM.
 * Timeouts are explicit so a hung server cannot hold a login request.
 */
import nodemailer, { type Transporter } from "nodemailer";
import type { MessageTransport, OutgoingMessage } from "./messages";

export interface SmtpSettings {
  url: string;
  /** The sender, e.g. `墨池课堂 <no-reply@mochi-classroom.cn>`. */
  from: string;
}

export class SmtpTransport implements MessageTransport {
  private readonly transporter: Transporter;

  constructor(
    private readonly settings: SmtpSettings,
    options: { timeoutMs?: number } = {},
  ) {
    const timeoutMs = options.timeoutMs ?? 10_000;
    this.transporter = nodemailer.createTransport({
      url: settings.url,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs * 2,
    });
  }

  async send(message: OutgoingMessage): Promise<void> {
    if (message.channel !== "email") throw new Error("The SMTP transport sends e-mail only");
    await this.transporter.sendMail({
      from: this.settings.from,
      to: message.to,
      subject: message.subject ?? "",
      text: message.text,
      messageId: `<${message.id}@${this.domainOfSender()}>`,
    });
  }

  close(): void {
    this.transporter.close();
  }

  private domainOfSender(): string {
    const match = /@([A-Za-z0-9.-]+)>?\s*$/.exec(this.settings.from);
    return match?.[1] ?? "localhost";
  }
}
