/**
 * Message providers against local fakes: an Aliyun SendSms endpoint that recomputes the request
 * signature on its own, and a tiny SMTP sink speaking enough of the protocol for nodemailer.
 * Configuration chooses them (SMS_PROVIDER, MAIL_TRANSPORT), and no log line carries a code.
 */
import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type AddressInfo, type Server as NetServer, createServer as createNetServer } from "node:net";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../api/db/database";
import { AliyunSmsError, AliyunSmsTransport, percentEncode, rpcSignature } from "../../api/providers/aliyun-sms";
import { DevOutbox, Messenger, type OutgoingMessage } from "../../api/providers/messages";
import { SmtpTransport } from "../../api/providers/smtp";
import { loadConfig } from "../../server/config";
import { apiContextFor } from "../../server/services";

const KEY_ID = "LTAI-test-key";
const KEY_SECRET = "test-secret/with+odd=chars";
const SIGN_NAME = "墨池课堂";
const TEMPLATE = "SMS_123456789";

function message(overrides: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    id: "11111111-2222-3333-4444-555555555555",
    channel: "sms",
    to: "13800138000",
    text: "【墨池课堂】验证码 482913，5 分钟内有效。",
    purpose: "login",
    code: "482913",
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

// ---------- A fake Aliyun endpoint with its own signature check ----------

/** Percent-encoding written independently of the code under test: byte by byte, RFC 3986 unreserved kept. */
function specEncode(value: string): string {
  let out = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function specSignature(method: string, params: Map<string, string>, secret: string): string {
  const canonical = [...params.keys()]
    .filter((k) => k !== "Signature")
    .sort()
    .map((k) => `${specEncode(k)}=${specEncode(params.get(k) ?? "")}`)
    .join("&");
  const toSign = `${method}&${specEncode("/")}&${specEncode(canonical)}`;
  return createHmac("sha1", `${secret}&`).update(toSign).digest("base64");
}

const received: Map<string, string>[] = [];

function fakeAliyun(req: IncomingMessage, res: ServerResponse) {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (chunk: string) => (body += chunk));
  req.on("end", () => {
    const reply = (payload: Record<string, string>, status = 200) => {
      res.writeHead(status, { "Content-Type": "application/json;charset=utf-8" });
      res.end(JSON.stringify({ RequestId: "F655A8D5-B967-440B-8683-DAD6FF8DE990", ...payload }));
    };
    const params = new Map(new URLSearchParams(body));
    received.push(params);
    if (req.method !== "POST" || req.url !== "/") return reply({ Code: "InvalidAction", Message: "bad path" }, 404);
    const expected = specSignature("POST", params, KEY_SECRET);
    if (params.get("AccessKeyId") !== KEY_ID) return reply({ Code: "InvalidAccessKeyId.NotFound", Message: "no key" });
    if (params.get("Signature") !== expected) {
      return reply({ Code: "SignatureDoesNotMatch", Message: "Specified signature is not matched" }, 400);
    }
    if (params.get("PhoneNumbers") === "13800000009") {
      return reply({ Code: "isv.BUSINESS_LIMIT_CONTROL", Message: "触发分钟级流控Permits:1" });
    }
    reply({ Code: "OK", Message: "OK", BizId: "900619746936498440^0" });
  });
}

// ---------- A tiny SMTP sink ----------

interface Mail {
  from: string;
  to: string[];
  data: string;
}
const mails: Mail[] = [];

function smtpSink(): NetServer {
  return createNetServer((socket) => {
    socket.setEncoding("utf8");
    let buffer = "";
    let inData = false;
    let current: Mail = { from: "", to: [], data: "" };
    const say = (line: string) => socket.write(`${line}\r\n`);
    say("220 sink.test ESMTP ready");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      let cut: number;
      while ((cut = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (inData) {
          if (line === ".") {
            inData = false;
            mails.push(current);
            current = { from: "", to: [], data: "" };
            say("250 2.0.0 queued");
          } else current.data += `${line.startsWith("..") ? line.slice(1) : line}\r\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO") socket.write("250-sink.test\r\n250 8BITMIME\r\n");
        else if (verb === "HELO") say("250 sink.test");
        else if (verb === "MAIL") {
          current.from = line.slice(10).trim();
          say("250 2.1.0 ok");
        } else if (verb === "RCPT") {
          current.to.push(line.slice(8).trim());
          say("250 2.1.5 ok");
        } else if (verb === "DATA") {
          inData = true;
          say("354 end data with <CR><LF>.<CR><LF>");
        } else if (verb === "QUIT") {
          say("221 2.0.0 bye");
          socket.end();
        } else if (verb === "RSET" || verb === "NOOP") say("250 ok");
        else say("502 5.5.2 not implemented");
      }
    });
    socket.on("error", () => {});
  });
}

/** The text of a sent mail: headers unfolded, encoded words and the body decoded. */
function readMail(raw: string): { headers: Record<string, string>; body: string } {
  const split = raw.indexOf("\r\n\r\n");
  const headerText = raw.slice(0, split).replace(/\r\n[ \t]+/g, " ");
  const headers: Record<string, string> = {};
  for (const line of headerText.split("\r\n")) {
    const at = line.indexOf(":");
    const value = line
      .slice(at + 1)
      .trim()
      .replace(/=\?utf-8\?([BQ])\?([^?]*)\?=\s*/gi, (_m, kind: string, text: string) =>
        kind.toUpperCase() === "B"
          ? Buffer.from(text, "base64").toString("utf8")
          : Buffer.from(
              text
                .replace(/_/g, " ")
                .replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
              "latin1",
            ).toString("utf8"),
      );
    headers[line.slice(0, at).toLowerCase()] = value;
  }
  let body = raw.slice(split + 4).replace(/\r\n$/, "");
  const encoding = headers["content-transfer-encoding"]?.toLowerCase();
  if (encoding === "base64") body = Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") {
    body = Buffer.from(
      body.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
      "latin1",
    ).toString("utf8");
  }
  return { headers, body };
}

/** SMS through the fake Aliyun endpoint, with the test's keys. */
const aliyunSms = () => ({
  SMS_PROVIDER: "aliyun",
  ALIYUN_ACCESS_KEY_ID: KEY_ID,
  ALIYUN_ACCESS_KEY_SECRET: KEY_SECRET,
  ALIYUN_SMS_SIGN_NAME: SIGN_NAME,
  ALIYUN_SMS_TEMPLATE_CODE: TEMPLATE,
  ALIYUN_SMS_ENDPOINT: aliyunOrigin,
});

function logCollector() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString("utf8"));
      done();
    },
  });
  return { logger: pino({ level: "info" }, stream), lines };
}

let aliyun: Server;
let aliyunOrigin: string;
let sink: NetServer;
let smtpUrl: string;

beforeAll(async () => {
  aliyun = createServer(fakeAliyun);
  await new Promise<void>((r) => aliyun.listen(0, "127.0.0.1", r));
  aliyunOrigin = `http://127.0.0.1:${(aliyun.address() as AddressInfo).port}`;
  sink = smtpSink();
  await new Promise<void>((r) => sink.listen(0, "127.0.0.1", r));
  smtpUrl = `smtp://127.0.0.1:${(sink.address() as AddressInfo).port}`;
});

afterAll(async () => {
  aliyun.closeAllConnections();
  await new Promise((r) => aliyun.close(r));
  await new Promise((r) => sink.close(r));
});

const settings = (overrides: Partial<ConstructorParameters<typeof AliyunSmsTransport>[0]> = {}) => ({
  accessKeyId: KEY_ID,
  accessKeySecret: KEY_SECRET,
  signName: SIGN_NAME,
  templateCode: TEMPLATE,
  endpoint: aliyunOrigin,
  ...overrides,
});

describe("Aliyun SMS signature", () => {
  it("reproduces the example of Aliyun's signature documentation", () => {
    const params = {
      Timestamp: "2016-02-23T12:46:24Z",
      Format: "XML",
      AccessKeyId: "testid",
      Action: "DescribeRegions",
      SignatureMethod: "HMAC-SHA1",
      SignatureNonce: "3ee8c1b8-83d3-44af-a94f-4e0ad82fd6cf",
      Version: "2014-05-26",
      SignatureVersion: "1.0",
    };
    expect(rpcSignature("GET", params, "testsecret")).toBe("OLeaidS1JvxuMvnyHOwuJ+uX5qY=");
  });

  it("percent-encodes as the spec says: %20 for space, %2A for *, ~ kept, UTF-8 bytes upper case", () => {
    expect(percentEncode("a b*c~d!'()")).toBe("a%20b%2Ac~d%21%27%28%29");
    expect(percentEncode("墨")).toBe("%E5%A2%A8");
    expect(percentEncode('{"code":"1"}')).toBe(specEncode('{"code":"1"}'));
  });
});

describe("Aliyun SMS transport", () => {
  it("sends SendSms with the documented parameters and a signature the endpoint accepts", async () => {
    const at = new Date("2026-11-22T03:04:05.678Z");
    const transport = new AliyunSmsTransport(settings(), { now: () => at });
    const before = received.length;
    await transport.send(message());
    await transport.send(message());
    const [first, second] = received.slice(before);
    expect(Object.fromEntries(first ?? [])).toEqual({
      AccessKeyId: KEY_ID,
      Action: "SendSms",
      Format: "JSON",
      PhoneNumbers: "13800138000",
      SignName: SIGN_NAME,
      TemplateCode: TEMPLATE,
      TemplateParam: '{"code":"482913"}',
      SignatureMethod: "HMAC-SHA1",
      SignatureNonce: expect.stringMatching(/^[0-9a-f-]{36}$/),
      SignatureVersion: "1.0",
      Timestamp: "2026-11-22T03:04:05Z",
      Version: "2017-05-25",
      Signature: expect.any(String),
    });
    expect(second?.get("SignatureNonce")).not.toBe(first?.get("SignatureNonce"));
  });

  it("a Code other than OK is an error", async () => {
    const err = await new AliyunSmsTransport(settings()).send(message({ to: "13800000009" })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AliyunSmsError);
    expect((err as AliyunSmsError).code).toBe("isv.BUSINESS_LIMIT_CONTROL");
  });

  it("a wrong secret is caught by the endpoint's signature check", async () => {
    const err = await new AliyunSmsTransport(settings({ accessKeySecret: "wrong" })).send(message()).catch((e) => e);
    expect((err as AliyunSmsError).code).toBe("SignatureDoesNotMatch");
    expect(String((err as Error).message)).not.toContain("wrong");
  });

  it("refuses a message without its code (templates carry only the code)", async () => {
    const before = received.length;
    await expect(new AliyunSmsTransport(settings()).send(message({ code: undefined }))).rejects.toThrow(/code/);
    expect(received.length).toBe(before);
  });

  it("an unreachable endpoint is an error, not a hang", async () => {
    const err = await new AliyunSmsTransport(settings({ endpoint: "http://127.0.0.1:1" }), { timeoutMs: 1000 })
      .send(message())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AliyunSmsError);
  });
});

describe("SMTP transport", () => {
  it("delivers through an SMTP server", async () => {
    const transport = new SmtpTransport({ url: smtpUrl, from: "墨池课堂 <no-reply@mochi.test>" });
    const before = mails.length;
    await transport.send(
      message({
        channel: "email",
        to: "learner@example.com",
        subject: "墨池课堂验证码",
        text: "验证码 246810，5 分钟内有效。",
      }),
    );
    transport.close();
    const mail = mails[before];
    expect(mail?.from).toBe("<no-reply@mochi.test>");
    expect(mail?.to).toEqual(["<learner@example.com>"]);
    const { headers, body } = readMail(mail?.data ?? "");
    expect(headers.subject).toBe("墨池课堂验证码");
    expect(headers.to).toBe("learner@example.com");
    expect(headers.from).toContain("<no-reply@mochi.test>");
    expect(body).toContain("验证码 246810，5 分钟内有效。");
  });
});

describe("configuration and the messenger", () => {
  const base = { NODE_ENV: "test", LOG_LEVEL: "silent", DATA_DIR: "test-results/data" };

  it("defaults to the outbox for both channels, and WeChat off", () => {
    const config = loadConfig(base);
    expect(config.sms).toEqual({ provider: "outbox" });
    expect(config.mail).toEqual({ transport: "outbox" });
    expect(config.wechat).toBeUndefined();
    expect(loadConfig({ ...base, WECHAT_APP_ID: "wx1", WECHAT_APP_SECRET: "s" }).wechat).toEqual({
      appId: "wx1",
      appSecret: "s",
      apiOrigin: "https://api.weixin.qq.com",
      openOrigin: "https://open.weixin.qq.com",
    });
  });

  it("names what is missing, and wants HTTPS for outbound calls in production", () => {
    expect(() => loadConfig({ ...base, SMS_PROVIDER: "aliyun", ALIYUN_ACCESS_KEY_ID: "x" })).toThrow(
      /ALIYUN_ACCESS_KEY_SECRET, ALIYUN_SMS_SIGN_NAME, ALIYUN_SMS_TEMPLATE_CODE/,
    );
    expect(() => loadConfig({ ...base, MAIL_TRANSPORT: "smtp", SMTP_FROM: "a@b.c" })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ ...base, MAIL_TRANSPORT: "smtp", SMTP_URL: "http://mail", SMTP_FROM: "a@b.c" })).toThrow(
      /SMTP_URL/,
    );
    expect(() => loadConfig({ ...base, SMS_PROVIDER: "sendgrid" })).toThrow(/SMS_PROVIDER/);
    expect(() => loadConfig({ ...base, WECHAT_APP_ID: "wx1" })).toThrow(/WECHAT_APP_SECRET/);
    expect(() =>
      loadConfig({
        ...base,
        NODE_ENV: "production",
        WECHAT_APP_ID: "wx1",
        WECHAT_APP_SECRET: "s",
        WECHAT_API_ORIGIN: "http://127.0.0.1:9",
      }),
    ).toThrow(/https/);
  });

  it("SMS_PROVIDER=aliyun and MAIL_TRANSPORT=smtp reach the fakes; logs show neither codes nor full numbers", async () => {
    const config = loadConfig({
      ...base,
      ...aliyunSms(),
      MAIL_TRANSPORT: "smtp",
      SMTP_URL: smtpUrl,
      SMTP_FROM: "墨池课堂 <no-reply@mochi.test>",
    });
    const { logger, lines } = logCollector();
    const ctx = await apiContextFor(config, null as unknown as Database, logger);
    expect(ctx.outbox).toBeNull();
    const sms = received.length;
    const mail = mails.length;
    await ctx.messenger.send({
      channel: "sms",
      to: "13912345678",
      text: "验证码 735190",
      purpose: "login",
      code: "735190",
    });
    await ctx.messenger.send({
      channel: "email",
      to: "learner@example.com",
      subject: "验证码",
      text: "验证码 519073",
      purpose: "login",
      code: "519073",
    });
    expect(received[sms]?.get("TemplateParam")).toBe('{"code":"735190"}');
    expect(received[sms]?.get("PhoneNumbers")).toBe("13912345678");
    expect(readMail(mails[mail]?.data ?? "").body).toContain("519073");
    const log = lines.join("");
    expect(log).toContain("message sent");
    for (const secret of ["735190", "519073", "13912345678", "learner@", KEY_SECRET]) expect(log).not.toContain(secret);
  });

  it("the outbox keeps the code for local logins, and the log still does not", async () => {
    const { logger, lines } = logCollector();
    const outbox = new DevOutbox(null);
    await new Messenger({ sms: outbox, email: outbox }, logger).send({
      channel: "sms",
      to: "13912345679",
      text: "验证码 864202",
      purpose: "bind",
      code: "864202",
    });
    expect(outbox.list()[0]).toMatchObject({ to: "13912345679", code: "864202", purpose: "bind" });
    expect(lines.join("")).not.toContain("864202");
  });

  it("in pro, a channel left on the outbox delivers nothing and says which variable to set", async () => {
    const config = loadConfig({
      ...base,
      DEPLOY_ENV: "pro",
      ...aliyunSms(),
    });
    const { logger, lines } = logCollector();
    const ctx = await apiContextFor(config, null as unknown as Database, logger);
    expect(ctx.messenger.missingSetting("sms")).toBeNull();
    expect(ctx.messenger.missingSetting("email")).toBe("MAIL_TRANSPORT");
    await ctx.messenger.send({
      channel: "email",
      to: "learner@example.com",
      text: "账号安全提醒",
      purpose: "security",
    });
    const log = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(log.find((l) => l.setting === "MAIL_TRANSPORT")).toMatchObject({
      level: 40,
      msg: "message not sent: nothing delivers email here, set MAIL_TRANSPORT",
      to: "l***@example.com",
    });
    expect(log.some((l) => l.msg === "message sent")).toBe(false);
    // Outside pro both channels deliver (to the outbox).
    const local = await apiContextFor(loadConfig(base), null as unknown as Database, logger);
    expect([local.messenger.missingSetting("sms"), local.messenger.missingSetting("email")]).toEqual([null, null]);
  });
});
