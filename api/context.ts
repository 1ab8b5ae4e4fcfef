/** What every API module works with: the database, messages, settings and the clock. */
import type { Logger } from "pino";
import type { Database } from "./db/database";
import type { CookieSettings } from "./modules/auth/sessions";
import type { EventStreams } from "./sse";
import type { DevOutbox, Messenger } from "./providers/messages";
import type { WechatSettings } from "./providers/wechat";

export interface ApiSettings {
  production: boolean;
  publicOrigin: string;
  siteName: string;
  dataDir: string;
  cookies: CookieSettings;
  /** Milliseconds public catalogue answers stay in memory per node (0: off). */
  catalogueCacheMs: number;
  /** Login codes one client IP may ask for per day (OTP_DAILY_PER_IP). */
  otpDailyPerIp: number;
  /** TEST_FIXTURES=1 (never in production): test-only endpoints such as granting coins exist. */
  testFixtures: boolean;
  /** WeChat website login; absent (the login is switched off) unless its app id and secret are configured. */
  wechat?: WechatSettings;
}

export interface ApiContext {
  database: Database;
  messenger: Messenger;
  /** The development outbox, when messages go there (never in production). */
  outbox: DevOutbox | null;
  settings: ApiSettings;
  logger: Logger;
  now: () => Date;
  /** Open Server-Sent Event streams, ended with a reconnect event when the process drains. */
  eventStreams: EventStreams;
}
