/** Table types for the typed query layer (Kysely); they follow the migrations. */
import type { ColumnType, Generated, Selectable } from "kysely";

/** A timestamp the database fills in by default. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** A timestamp every insert must give. */
type RequiredTimestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface UsersTable {
  id: Generated<number>;
  phone: string | null;
  email: string | null;
  password_hash: string | null;
  nickname: Generated<string>;
  avatar_url: string | null;
  gender: "male" | "female" | null;
  region: string | null;
  intro: string | null;
  role: Generated<"learner" | "teacher" | "operator">;
  status: Generated<"active" | "disabled" | "deleting" | "deleted">;
  device_protection: Generated<boolean>;
  info_completed_at: NullableTimestamp;
  info_skipped_at: NullableTimestamp;
  deletion_requested_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DevicesTable {
  id: Generated<number>;
  user_id: number;
  device_key_hash: string;
  name: string;
  trusted_at: NullableTimestamp;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
}

export interface PendingLoginsTable {
  id_hash: string;
  user_id: number;
  device_key_hash: string;
  created_at: Timestamp;
  expires_at: RequiredTimestamp;
  consumed_at: NullableTimestamp;
}

export interface SessionsTable {
  id_hash: string;
  user_id: number;
  device_id: number | null;
  user_agent: Generated<string>;
  ip: Generated<string>;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: RequiredTimestamp;
  revoked_at: NullableTimestamp;
}

export interface OtpChallengesTable {
  id: string;
  purpose: string;
  channel: "sms" | "email";
  target: string;
  code_hash: string;
  attempts: Generated<number>;
  user_id: number | null;
  ip: Generated<string>;
  created_at: Timestamp;
  expires_at: RequiredTimestamp;
  consumed_at: NullableTimestamp;
}

export interface RateLimitsTable {
  key: string;
  window_start: RequiredTimestamp;
  count: Generated<number>;
}

export interface QrTicketsTable {
  id: string;
  browser_hash: string;
  status: Generated<"pending" | "scanned" | "confirmed" | "cancelled" | "consumed">;
  requester_ua: Generated<string>;
  requester_ip: Generated<string>;
  user_id: number | null;
  created_at: Timestamp;
  expires_at: RequiredTimestamp;
}

export interface IdentitiesTable {
  provider: string;
  provider_uid: string;
  user_id: number;
  nickname: string | null;
  created_at: Timestamp;
}

export interface NotificationsTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  title: string;
  body: Generated<string>;
  created_at: Timestamp;
  read_at: NullableTimestamp;
}

export interface FeedbackTable {
  id: Generated<number>;
  user_id: number | null;
  category: string;
  content: string;
  contact: string | null;
  created_at: Timestamp;
}

export interface DB {
  users: UsersTable;
  devices: DevicesTable;
  sessions: SessionsTable;
  pending_logins: PendingLoginsTable;
  otp_challenges: OtpChallengesTable;
  rate_limits: RateLimitsTable;
  qr_tickets: QrTicketsTable;
  identities: IdentitiesTable;
  notifications: NotificationsTable;
  feedback: FeedbackTable;
}

export type User = Selectable<UsersTable>;
