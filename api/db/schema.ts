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
  /** Set by `user:create` (a one-time password): the account must set its own before anything else. */
  password_change_required: Generated<boolean>;
  playback_speed_x100: Generated<number>;
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
  /** What the login waits for: this browser's confirmation, or the second factor. */
  purpose: Generated<"device" | "two_factor">;
  /** Begun with the password: the session it ends in counts as stepped up. */
  stepped_up: Generated<boolean>;
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
  /** When the session last proved its password or a two-factor code (step-up). */
  stepped_up_at: NullableTimestamp;
}

/** An authenticator app's TOTP secret; a login needs its codes once `confirmed_at` is set. */
export interface TotpFactorsTable {
  user_id: number;
  secret: string;
  confirmed_at: NullableTimestamp;
  /** The last time step (Unix time / 30 s) whose code was accepted: no code is taken twice. */
  last_step: number | null;
  created_at: Timestamp;
}

export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  /** scrypt, as passwords are stored. */
  code_hash: string;
  used_at: NullableTimestamp;
  created_at: Timestamp;
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
  state: Generated<"open" | "handled">;
  reply: string | null;
  replied_at: NullableTimestamp;
  handled_by: number | null;
  handled_at: NullableTimestamp;
}

type DateColumn = ColumnType<string | null, string | null | undefined, string | null>;
/** jsonb: written as a JSON string, read back parsed. */
type Json<T> = ColumnType<T, string | undefined, string>;

export type CourseKind = "recorded" | "live" | "camp";
export type CourseLevel = "beginner" | "intermediate" | "advanced";
export type PublishStatus = "draft" | "published" | "archived";
export type LiveState = "scheduled" | "live" | "ended" | "processing" | "replay" | "cancelled";
export type EnrolmentSource = "free" | "order" | "gift" | "group" | "exchange" | "admin";

export interface TeachersTable {
  id: Generated<number>;
  user_id: number | null;
  name: string;
  title: Generated<string>;
  bio: Generated<string>;
  specialty: Generated<string>;
  portrait_char: string;
  position: Generated<number>;
}

export interface CoursesTable {
  id: Generated<number>;
  title: string;
  subtitle: Generated<string>;
  category: string;
  kind: CourseKind;
  level: CourseLevel;
  teacher_id: number;
  price_cents: number;
  original_price_cents: number;
  is_public: Generated<boolean>;
  cover_char: string;
  summary: Generated<string>;
  introduction: Generated<string>;
  outcomes: Json<string[]>;
  learners_count: Generated<number>;
  popularity: Generated<number>;
  camp_starts_on: DateColumn;
  status: Generated<PublishStatus>;
  published_at: Timestamp;
  updated_at: Timestamp;
  cover_image: string | null;
}

export interface ChaptersTable {
  id: Generated<number>;
  course_id: number;
  position: number;
  title: string;
}

export interface LessonsTable {
  id: Generated<number>;
  course_id: number;
  chapter_id: number;
  position: number;
  title: string;
  summary: Generated<string>;
  video_key: string;
  duration_seconds: number;
  is_trial: Generated<boolean>;
  unlock_day: number | null;
  video_url: string | null;
}

export interface EnrolmentsTable {
  user_id: number;
  course_id: number;
  source: EnrolmentSource;
  created_at: Timestamp;
  last_lesson_id: number | null;
  last_learned_at: NullableTimestamp;
}

export interface LessonProgressTable {
  user_id: number;
  lesson_id: number;
  position_seconds: Generated<number>;
  watched_seconds: Generated<number>;
  speed_x100: Generated<number>;
  completed_at: NullableTimestamp;
  updated_at: Timestamp;
}

export interface LiveSessionsTable {
  id: Generated<number>;
  course_id: number | null;
  teacher_id: number;
  title: string;
  summary: Generated<string>;
  cover_char: string;
  starts_at: RequiredTimestamp;
  ends_at: RequiredTimestamp;
  state: Generated<LiveState>;
  stream_key: string;
  recording_video_key: string | null;
  chapter_marks: Json<Array<{ at: number; title: string }>>;
  is_open: Generated<boolean>;
  updated_at: Timestamp;
  pinned_message: string | null;
}

export interface LiveBookingsTable {
  user_id: number;
  live_id: number;
  created_at: Timestamp;
}

export interface LiveAttendanceTable {
  user_id: number;
  live_id: number;
  first_joined_at: Timestamp;
  last_seen_at: Timestamp;
  seconds: Generated<number>;
  checked_in_at: NullableTimestamp;
  counted_at: NullableTimestamp;
}

export interface LiveChatMessagesTable {
  id: Generated<number>;
  live_id: number;
  user_id: number;
  body: string;
  created_at: Timestamp;
  hidden_at: NullableTimestamp;
  hidden_by: number | null;
}

export interface LiveMutesTable {
  live_id: number;
  user_id: number;
  until: RequiredTimestamp;
  muted_by: number | null;
  created_at: Timestamp;
}

export type StockItemType = "book" | "sku";

export interface StockChangesTable {
  id: Generated<number>;
  item_type: StockItemType;
  item_id: number;
  delta: number;
  stock_after: number;
  reason: string;
  actor_id: number | null;
  created_at: Timestamp;
}

export interface ReplayProgressTable {
  user_id: number;
  live_id: number;
  position_seconds: Generated<number>;
  watched_seconds: Generated<number>;
  completed_at: NullableTimestamp;
  updated_at: Timestamp;
}

export interface BooksTable {
  id: Generated<number>;
  title: string;
  author: string;
  publisher: string;
  isbn: string;
  tab: string;
  price_cents: number;
  original_price_cents: number;
  stock: Generated<number>;
  cover_char: string;
  summary: Generated<string>;
  pages: number | null;
  published_on: DateColumn;
  status: Generated<PublishStatus>;
  created_at: Timestamp;
  updated_at: Timestamp;
  cover_image: string | null;
}

export interface CommoditiesTable {
  id: Generated<number>;
  title: string;
  category: string;
  summary: Generated<string>;
  description: Generated<string>;
  cover_char: string;
  gallery: Json<string[]>;
  sales: Generated<number>;
  status: Generated<PublishStatus>;
  created_at: Timestamp;
  updated_at: Timestamp;
  cover_image: string | null;
}

export interface CommoditySkusTable {
  id: Generated<number>;
  commodity_id: number;
  name: string;
  price_cents: number;
  original_price_cents: number;
  stock: Generated<number>;
  position: Generated<number>;
}

export interface BannersTable {
  id: Generated<number>;
  title: string;
  subtitle: Generated<string>;
  link: string;
  glyph: string;
  tone: Generated<string>;
  position: Generated<number>;
  active: Generated<boolean>;
}

export type ActivityKind = "bmyx" | "daycourse" | "reading" | "travel_note" | "general";

export interface ActivitiesTable {
  id: Generated<number>;
  token: string;
  kind: ActivityKind;
  title: string;
  summary: Generated<string>;
  body: Json<Array<{ heading: string; text: string }>>;
  cover_char: string;
  starts_at: RequiredTimestamp;
  ends_at: RequiredTimestamp;
  course_id: number | null;
  /** Most sign-ups at once (null: no cap). */
  capacity: number | null;
  /** Sign-ups in state signed_up, kept by the sign-up and cancel updates. */
  signed_up_count: Generated<number>;
  /** The lesson whose homework the activity's participants hand in. */
  homework_lesson_id: number | null;
}

export interface PublicCourseItemsTable {
  id: Generated<number>;
  title: string;
  summary: Generated<string>;
  teacher_id: number;
  video_key: string;
  duration_seconds: number;
  cover_char: string;
  position: Generated<number>;
  published_at: Timestamp;
}

export interface TrialSignupsTable {
  id: Generated<number>;
  user_id: number | null;
  name: string;
  phone: string;
  category: string;
  grade: Generated<string>;
  created_at: Timestamp;
}

// ---------- Commerce (migration 004) ----------

export type Currency = "coin" | "bishan";
export type OrderState =
  | "pending"
  | "paid"
  | "awaiting_shipment"
  | "shipped"
  | "completed"
  | "cancelled"
  | "refunding"
  | "refunded"
  | "partially_refunded";
export type ItemType = "course" | "book" | "commodity";

export interface AddressesTable {
  id: Generated<number>;
  user_id: number;
  recipient: string;
  phone: string;
  region: string;
  detail: string;
  is_default: Generated<boolean>;
  created_at: Timestamp;
}

export interface CouponTemplatesTable {
  id: Generated<number>;
  title: string;
  kind: "amount" | "percent";
  amount_off_cents: Generated<number>;
  percent_off: Generated<number>;
  threshold_cents: Generated<number>;
  scope: Generated<"all" | ItemType>;
  scope_ref_id: number | null;
  valid_days: number | null;
  valid_until: NullableTimestamp;
  total_quantity: number | null;
  claimed_count: Generated<number>;
  per_user_limit: Generated<number>;
  claimable: Generated<boolean>;
  created_at: Timestamp;
  retired_at: NullableTimestamp;
}

export interface CouponsTable {
  id: Generated<number>;
  template_id: number;
  user_id: number;
  source: Generated<"claim" | "exchange" | "grant">;
  state: Generated<"available" | "locked" | "used" | "returned">;
  valid_from: Timestamp;
  valid_until: RequiredTimestamp;
  order_id: number | null;
  used_at: NullableTimestamp;
  returned_at: NullableTimestamp;
  return_notice_seen_at: NullableTimestamp;
  claimed_at: Timestamp;
  issue_key: string | null;
}

export interface AddressSnapshot {
  recipient: string;
  phone: string;
  region: string;
  detail: string;
}

export type OrderPurpose = "buy" | "gift" | "group";

export interface OrdersTable {
  id: Generated<number>;
  order_no: string;
  user_id: number;
  purpose: Generated<OrderPurpose>;
  item_type: ItemType;
  item_id: number;
  sku_id: number | null;
  quantity: Generated<number>;
  title: string;
  sku_name: string | null;
  unit_price_cents: number;
  total_cents: number;
  coupon_id: number | null;
  coupon_discount_cents: Generated<number>;
  coins_used: Generated<number>;
  coin_discount_cents: Generated<number>;
  pay_cents: number;
  physical: Generated<boolean>;
  address: ColumnType<AddressSnapshot | null, string | null | undefined, string | null>;
  state: Generated<OrderState>;
  cancel_reason: string | null;
  provider: string | null;
  provider_txn_id: string | null;
  group_id: number | null;
  expires_at: RequiredTimestamp;
  paid_at: NullableTimestamp;
  shipped_at: NullableTimestamp;
  completed_at: NullableTimestamp;
  cancelled_at: NullableTimestamp;
  refunded_cents: Generated<number>;
  stock_released_at: NullableTimestamp;
  carrier: string | null;
  tracking_no: string | null;
  refund_reason: string | null;
  /** The ledger key of the coins now on the order (null: none), so returning them happens once. */
  coins_applied_key: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface PaymentSandboxTable {
  id: string;
  order_no: string;
  amount_cents: number;
  currency: Generated<string>;
  state: Generated<"open" | "approved" | "declined" | "failed">;
  txn_id: string | null;
  created_at: Timestamp;
  decided_at: NullableTimestamp;
  /** When the site credited, refunded or set aside this approval (null: not yet, or not approved). */
  settled_at: NullableTimestamp;
}

export interface PaymentsTable {
  id: Generated<number>;
  order_id: number;
  provider: string;
  provider_txn_id: string;
  amount_cents: number;
  currency: Generated<string>;
  outcome: "credited" | "refunded_late" | "ignored";
  received_at: Timestamp;
}

export type RefundState = "requested" | "processing" | "succeeded" | "failed" | "rejected" | "withdrawn";

export interface RefundsTable {
  id: Generated<number>;
  order_id: number;
  user_id: number;
  amount_cents: number;
  reason: string;
  state: Generated<RefundState>;
  provider_refund_id: string | null;
  created_at: Timestamp;
  completed_at: NullableTimestamp;
  /** Pieces a partial refund returns; null: the whole order. */
  quantity: number | null;
  /** Returns under review: the order's state before the request, to go back to if it is not approved. */
  previous_state: OrderState | null;
  review_note: string | null;
  reviewed_by: number | null;
  reviewed_at: NullableTimestamp;
}

export type GiftState = "pending_payment" | "unclaimed" | "claimed" | "refunding" | "refunded" | "cancelled";

export interface GiftsTable {
  id: Generated<number>;
  order_id: number;
  buyer_id: number;
  course_id: number;
  code: string;
  message: Generated<string>;
  state: Generated<GiftState>;
  claimed_by: number | null;
  claimed_at: NullableTimestamp;
  created_at: Timestamp;
  /** 30 days after payment: claimable until then, refundable after it while unclaimed. */
  claim_until: NullableTimestamp;
  refunded_at: NullableTimestamp;
}

export interface GroupCampaignsTable {
  id: Generated<number>;
  course_id: number;
  group_size: Generated<number>;
  group_price_cents: number;
  valid_hours: Generated<number>;
  starts_at: RequiredTimestamp;
  ends_at: RequiredTimestamp;
  active: Generated<boolean>;
}

export interface GroupsTable {
  id: Generated<number>;
  group_no: string;
  campaign_id: number;
  leader_id: number;
  group_size: number;
  state: Generated<"forming" | "open" | "complete" | "failed" | "abandoned">;
  seats_taken: Generated<number>;
  paid_count: Generated<number>;
  expires_at: NullableTimestamp;
  completed_at: NullableTimestamp;
  failed_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface GroupMembersTable {
  group_id: number;
  user_id: number;
  order_id: number;
  state: Generated<"held" | "paid" | "released" | "refunded">;
  held_until: RequiredTimestamp;
  joined_at: Timestamp;
}

export interface WalletsTable {
  user_id: number;
  currency: Currency;
  balance: Generated<number>;
  updated_at: Timestamp;
}

export interface WalletEntriesTable {
  id: Generated<number>;
  user_id: number;
  currency: Currency;
  amount: number;
  balance_after: number;
  reason: string;
  ref_type: string | null;
  ref_id: string | null;
  idempotency_key: string;
  note: Generated<string>;
  created_at: Timestamp;
}

export interface ExchangeItemsTable {
  id: Generated<number>;
  title: string;
  summary: Generated<string>;
  kind: "commodity" | "book" | "coupon" | "course";
  ref_id: number;
  currency: Currency;
  price: number;
  stock: number;
  per_user_limit: Generated<number>;
  cover_char: string;
  active: Generated<boolean>;
  position: Generated<number>;
}

export interface ExchangeRedemptionsTable {
  id: Generated<number>;
  user_id: number;
  item_id: number;
  currency: Currency;
  price: number;
  state: Generated<"pending" | "completed" | "failed">;
  failure: string | null;
  address: ColumnType<AddressSnapshot | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  completed_at: NullableTimestamp;
  delivery_state: DeliveryState | null;
  carrier: string | null;
  tracking_no: string | null;
  shipped_at: NullableTimestamp;
  delivered_at: NullableTimestamp;
}

/** Where a physical redemption is on its way: 待发货 → 已发货 → 已签收. */
export type DeliveryState = "awaiting_shipment" | "shipped" | "delivered";

export interface IdempotencyKeysTable {
  user_id: number;
  route: string;
  key: string;
  fingerprint: string;
  status_code: number | null;
  response: ColumnType<unknown, string | null | undefined, string | null>;
  created_at: Timestamp;
  completed_at: NullableTimestamp;
  /** The process running the request (null once it finished). */
  lease_owner: string | null;
  /** Until when that process holds the key; past it a retry takes the key over (migration 022). */
  lease_expires_at: NullableTimestamp;
}

/** One claimed period of a periodic job (api/jobs/registry.ts): null `ok` while running. */
export type VideoJobState = "queued" | "running" | "done" | "failed";

export interface VideoJobsTable {
  id: Generated<number>;
  lesson_id: number;
  state: ColumnType<VideoJobState, VideoJobState | undefined, VideoJobState>;
  progress: Generated<number>;
  message: string | null;
  attempts: Generated<number>;
  lease_owner: string | null;
  lease_expires_at: NullableTimestamp;
  source_path: string;
  output_dir: string;
  duration_seconds: number;
  created_by: number | null;
  created_at: Timestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  updated_at: Timestamp;
}

export interface JobRunsTable {
  job: string;
  period_start: RequiredTimestamp;
  node: string;
  started_at: Timestamp;
  finished_at: NullableTimestamp;
  ok: boolean | null;
  error: string | null;
}

export type HomeworkScript = "kai" | "xing" | "li" | "zhuan" | "cao" | "yingbi";
export type HomeworkState = "waiting" | "reviewed" | "returned";
export type HomeworkLevel = "excellent" | "good" | "fair" | "weak";

/** Which teacher accounts teach (and review the homework of) which course. */
export interface CourseTeachersTable {
  course_id: number;
  user_id: number;
  created_at: Timestamp;
}

export interface HomeworkTasksTable {
  id: Generated<number>;
  course_id: number;
  lesson_id: number;
  title: string;
  instructions: Generated<string>;
  characters: Generated<string>;
  script: HomeworkScript;
  max_photos: Generated<number>;
  created_at: Timestamp;
}

export interface HomeworkSubmissionsTable {
  id: Generated<number>;
  public_id: string;
  share_id: string;
  task_id: number;
  user_id: number;
  state: Generated<HomeworkState>;
  level: HomeworkLevel | null;
  attempts: Generated<number>;
  show_on_wall: Generated<boolean>;
  excellent_at: NullableTimestamp;
  hidden_at: NullableTimestamp;
  hidden_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface HomeworkAttemptsTable {
  id: Generated<number>;
  public_id: string;
  submission_id: number;
  number: number;
  state: Generated<HomeworkState>;
  note: Generated<string>;
  submitted_at: Timestamp;
  claimed_by: number | null;
  claim_until: NullableTimestamp;
  assigned_to: number | null;
  level: HomeworkLevel | null;
  comment: Generated<string>;
  return_reason: string | null;
  drawings: Json<unknown[]>;
  reviewed_by: number | null;
  reviewed_at: NullableTimestamp;
}

/** Bytes are read only by the photo endpoints; lists select the other columns by name. */
export interface HomeworkPhotosTable {
  id: string;
  user_id: number;
  task_id: number;
  attempt_id: number | null;
  position: Generated<number>;
  width: number;
  height: number;
  thumb_width: number;
  thumb_height: number;
  display_bytes: Uint8Array;
  thumb_bytes: Uint8Array;
  created_at: Timestamp;
}

export interface HomeworkPhrasesTable {
  user_id: number;
  phrases: Json<string[]>;
  updated_at: Timestamp;
}

/** Staff actions, append-only (migration 011). */
export interface AuditLogTable {
  id: Generated<number>;
  actor_id: number | null;
  actor_name: string;
  actor_role: string;
  action: string;
  target_type: string;
  target_id: string | null;
  before: ColumnType<unknown, string | null | undefined, string | null>;
  after: ColumnType<unknown, string | null | undefined, string | null>;
  reason: string | null;
  created_at: Timestamp;
  /** Set by the chain trigger (migration 021): the hash of the row before, and this row's. */
  prev_hash: Generated<string>;
  hash: Generated<string>;
}

/** The head of the audit log's hash chain: one row, locked by every append. */
export interface AuditChainTable {
  id: Generated<number>;
  last_id: number;
  hash: string;
}

/** Bytes are read only by the photo endpoint. */
export interface PracticePhotosTable {
  id: string;
  user_id: number;
  width: number;
  height: number;
  thumb_width: number;
  thumb_height: number;
  display_bytes: Uint8Array;
  thumb_bytes: Uint8Array;
  created_at: Timestamp;
}

export interface PracticeDiaryTable {
  user_id: number;
  /** China date, 'YYYY-MM-DD'. */
  day: ColumnType<string, string, string>;
  minutes: Generated<number>;
  traced_seconds: Generated<number>;
  characters: Generated<string>;
  traced_characters: Generated<string>;
  note: Generated<string>;
  photo_id: string | null;
  made_up: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Seconds studied on one China-time day ("YYYY-MM-DD"), added to by each progress report. */
export interface StudyDaysTable {
  user_id: number;
  day: string;
  seconds: Generated<number>;
}

export interface ActivitySignupsTable {
  activity_id: number;
  user_id: number;
  state: Generated<"signed_up" | "cancelled">;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CalendarFeedsTable {
  user_id: number;
  token: string;
  created_at: Timestamp;
}

export interface ActivityCheckInsTable {
  activity_id: number;
  user_id: number;
  day: string;
  note: Generated<string>;
  created_at: Timestamp;
}

export interface DB {
  users: UsersTable;
  audit_log: AuditLogTable;
  audit_chain: AuditChainTable;
  devices: DevicesTable;
  sessions: SessionsTable;
  pending_logins: PendingLoginsTable;
  totp_factors: TotpFactorsTable;
  recovery_codes: RecoveryCodesTable;
  otp_challenges: OtpChallengesTable;
  rate_limits: RateLimitsTable;
  qr_tickets: QrTicketsTable;
  identities: IdentitiesTable;
  notifications: NotificationsTable;
  feedback: FeedbackTable;
  teachers: TeachersTable;
  courses: CoursesTable;
  chapters: ChaptersTable;
  lessons: LessonsTable;
  enrolments: EnrolmentsTable;
  lesson_progress: LessonProgressTable;
  live_sessions: LiveSessionsTable;
  live_bookings: LiveBookingsTable;
  live_attendance: LiveAttendanceTable;
  live_chat_messages: LiveChatMessagesTable;
  replay_progress: ReplayProgressTable;
  books: BooksTable;
  commodities: CommoditiesTable;
  commodity_skus: CommoditySkusTable;
  banners: BannersTable;
  activities: ActivitiesTable;
  activity_signups: ActivitySignupsTable;
  activity_check_ins: ActivityCheckInsTable;
  study_days: StudyDaysTable;
  public_course_items: PublicCourseItemsTable;
  trial_signups: TrialSignupsTable;
  addresses: AddressesTable;
  coupon_templates: CouponTemplatesTable;
  coupons: CouponsTable;
  orders: OrdersTable;
  payments: PaymentsTable;
  payment_sandbox: PaymentSandboxTable;
  refunds: RefundsTable;
  gifts: GiftsTable;
  group_campaigns: GroupCampaignsTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  wallets: WalletsTable;
  wallet_entries: WalletEntriesTable;
  exchange_items: ExchangeItemsTable;
  exchange_redemptions: ExchangeRedemptionsTable;
  idempotency_keys: IdempotencyKeysTable;
  job_runs: JobRunsTable;
  course_teachers: CourseTeachersTable;
  homework_tasks: HomeworkTasksTable;
  homework_submissions: HomeworkSubmissionsTable;
  homework_attempts: HomeworkAttemptsTable;
  homework_photos: HomeworkPhotosTable;
  homework_phrases: HomeworkPhrasesTable;
  practice_photos: PracticePhotosTable;
  practice_diary: PracticeDiaryTable;
  calendar_feeds: CalendarFeedsTable;
  stock_changes: StockChangesTable;
  live_mutes: LiveMutesTable;
  video_jobs: VideoJobsTable;
}

export type User = Selectable<UsersTable>;
