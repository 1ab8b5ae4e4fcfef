/** What every API module works with: the database, messages, settings and the clock. */
import type { Logger } from "pino";
import type { Database } from "./db/database";
import type { EventStreams } from "./sse";
import type { DevOutbox, Messenger } from "./providers/messages";
import type { WechatSettings } from "./providers/wechat";

/** The session cookie's form (api/modules/auth/sessions.ts). */
export interface CookieSettings {
  /** `__Host-sid` with Secure on HTTPS origins, `sid` on plain-HTTP development origins. */
  secure: boolean;
}

/** Lesson video uploads (FFMPEG_PATH, VIDEO_UPLOAD_MAX_MB). */
export interface VideoSettings {
  /** The ffmpeg executable named by FFMPEG_PATH; absent: looked for on `searchPath`. */
  ffmpegPath?: string;
  /** The PATH the encoder is looked for on. */
  searchPath: string;
  uploadMaxBytes: number;
}

export interface ApiSettings {
  production: boolean;
  publicOrigin: string;
  /** Same-site checks also accept the request's own host (outside `pro`, PUBLIC_ORIGIN not set). */
  acceptRequestHost: boolean;
  siteName: string;
  dataDir: string;
  cookies: CookieSettings;
  /** Milliseconds public catalogue answers stay in memory per node (0: off). */
  catalogueCacheMs: number;
  /** Login codes one client IP may ask for per day (OTP_DAILY_PER_IP). */
  otpDailyPerIp: number;
  /** The `pro` environment: an operator must turn on two-factor login before anything else. */
  operatorsNeedTwoFactor: boolean;
  /** TEST_FIXTURES=1 (never in production): test-only endpoints such as granting coins exist. */
  testFixtures: boolean;
  /** WeChat website login; absent (the login is switched off) unless its app id and secret are configured. */
  wechat?: WechatSettings;
  /** Absent (tests building a context by hand): the process environment decides. */
  video?: VideoSettings;
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
