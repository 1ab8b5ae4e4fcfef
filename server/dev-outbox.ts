/**
 * /dev/outbox: the messages the development outbox kept instead of sending (newest first), as
 * a plain page, so a local user or a browser test can read the codes. app.ts mounts it
 * outside production and in the test deployment only; never in the pro environment.
 */
import type { RequestHandler } from "express";
import type { DevOutbox, OutgoingMessage } from "../api/index";

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch,
  );

/** Whether this deployment may show its outbox. */
/**
 * Development builds, and production builds in the `test` and `local` environments (the browser
 * tests; `npm start` on one's own machine). Never `pro`, never another production environment.
 */
export function outboxAllowed(config: { production: boolean; deployEnv: string }): boolean {
  if (config.deployEnv === "pro") return false;
  return !config.production || config.deployEnv === "test" || config.deployEnv === "local";
}

function row(message: OutgoingMessage): string {
  const time = new Date(message.createdAt).toLocaleString("zh-CN", { timeZone: "Asia/Shanghai", hour12: false });
  const text = message.subject ? `${message.subject}\n${message.text}` : message.text;
  const data = `data-channel="${escapeHtml(message.channel)}" data-purpose="${escapeHtml(message.purpose)}"`;
  return `<tr ${data} data-to="${escapeHtml(message.to)}">
<td><time datetime="${escapeHtml(message.createdAt)}">${escapeHtml(time)}</time></td>
<td>${message.channel === "sms" ? "短信" : "邮件"}</td>
<td>${escapeHtml(message.purpose)}</td>
<td>${escapeHtml(message.to)}</td>
<td class="text">${escapeHtml(text)}</td>
</tr>`;
}

function renderOutbox(messages: OutgoingMessage[], filter: string | null): string {
  const rows = messages.map(row).join("\n");
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="robots" content="noindex">
<title>开发发件箱</title>
<style>
body { margin: 32px; font: 14px/1.6 system-ui, "Noto Sans CJK SC", sans-serif; color: #222; background: #f7f3ea; }
table { border-collapse: collapse; width: 100%; background: #fffdf8; }
th, td { padding: 8px 12px; border: 1px solid #e3dccb; text-align: left; vertical-align: top; }
th { background: #efe8d9; }
td.text { white-space: pre-wrap; }
</style>
</head>
<body>
<h1>开发发件箱</h1>
<p>这里是本环境代替短信和邮件“发出”的消息，最新的在前${filter ? `（收件人：${escapeHtml(filter)}）` : ""}。生产环境没有这个页面。</p>
${
  messages.length === 0
    ? "<p>还没有消息。</p>"
    : `<table>
<thead><tr><th>时间</th><th>渠道</th><th>用途</th><th>收件人</th><th>内容</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
}
</body>
</html>`;
}

/** `?to=` keeps the messages of one address. Without an outbox (messages really go out): 404. */
export function devOutboxHandler(outbox: DevOutbox | null | undefined): RequestHandler {
  return (req, res, next) => {
    if (!outbox) return next();
    const to = typeof req.query.to === "string" && req.query.to ? req.query.to.trim().toLowerCase() : null;
    const messages = outbox.list().filter((m) => !to || m.to.toLowerCase() === to);
    res.setHeader("Cache-Control", "no-store");
    res.type("html").send(renderOutbox(messages, to));
  };
}
