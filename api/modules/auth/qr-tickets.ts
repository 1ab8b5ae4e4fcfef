/**
 * Scan-code login tickets: what a ticket's state is, how it moves (compare-and-set only, so two
 * phones or two web nodes never both win), and how a change reaches every web node
 * (NOTIFY on one channel, fanned out in each process to the streams watching that ticket).
 */
import type { Database } from "../../db/database";
import type { Selectable } from "kysely";
import type { QrTicketsTable } from "../../db/schema";

/** A ticket lives 2 minutes (QRLJacking: short-lived and single-use). */
export const QR_TTL_MS = 120_000;
export const QR_EVENTS_CHANNEL = "qr_events";
export const TICKET_PATTERN = /^[A-Za-z0-9_-]{6,64}$/;

export type QrTicket = Selectable<QrTicketsTable>;
type StoredStatus = QrTicket["status"];
/** What clients see: the stored status, or `expired` once an unfinished ticket has outlived its time. */
export type QrStatus = StoredStatus | "expired";

const QR_STATUSES: readonly QrStatus[] = ["pending", "scanned", "confirmed", "cancelled", "consumed", "expired"];

/** States only move forward; a stream never goes back to an earlier one (notifications may cross). */
export const STATUS_RANK: Record<QrStatus, number> = {
  pending: 0,
  scanned: 1,
  confirmed: 2,
  cancelled: 3,
  consumed: 3,
  expired: 3,
};

/** After these the desktop's stream has nothing more to wait for. */
export const FINAL_FOR_STREAM = new Set<QrStatus>(["confirmed", "cancelled", "consumed", "expired"]);

export function publicStatus(ticket: Pick<QrTicket, "status" | "expires_at">, now: Date): QrStatus {
  if (ticket.expires_at.getTime() <= now.getTime() && ticket.status !== "consumed" && ticket.status !== "cancelled") {
    return "expired";
  }
  return ticket.status;
}

export async function findTicket(database: Database, id: string): Promise<QrTicket | undefined> {
  if (!TICKET_PATTERN.test(id)) return undefined;
  return database.db.selectFrom("qr_tickets").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Tells every web node (this one included) that a ticket moved. */
export async function publishStatus(database: Database, ticket: string, status: QrStatus): Promise<void> {
  await database.notify(QR_EVENTS_CHANNEL, JSON.stringify({ ticket, status }));
}

type StatusListener = (status: QrStatus) => void;

/**
 * One LISTEN per process, shared by every open stream; a notification is handed to the
 * streams of its ticket only. It starts listening on the first subscriber and stays. When the
 * LISTEN connection comes back after a loss, every watched ticket is read again (a scan or a
 * confirmation may have happened meanwhile); streams drop states they already passed.
 */
export class QrEventHub {
  private readonly watchers = new Map<string, Set<StatusListener>>();
  private listening: Promise<unknown> | null = null;

  constructor(
    private readonly database: Database,
    private readonly now: () => Date = () => new Date(),
    private readonly onReplayError: (err: unknown) => void = () => {},
  ) {
    database.onListenRestored(() => {
      this.recheck().catch(this.onReplayError);
    });
  }

  private async recheck(): Promise<void> {
    for (const id of [...this.watchers.keys()]) {
      const ticket = await findTicket(this.database, id);
      const status = ticket ? publicStatus(ticket, this.now()) : "expired";
      for (const listener of this.watchers.get(id) ?? []) listener(status);
    }
  }

  watcherCount(ticket: string): number {
    return this.watchers.get(ticket)?.size ?? 0;
  }

  async subscribe(ticket: string, listener: StatusListener): Promise<() => void> {
    let set = this.watchers.get(ticket);
    if (!set) {
      set = new Set();
      this.watchers.set(ticket, set);
    }
    set.add(listener);
    const unsubscribe = () => {
      set.delete(listener);
      if (set.size === 0 && this.watchers.get(ticket) === set) this.watchers.delete(ticket);
    };
    try {
      this.listening ??= this.database.listen(QR_EVENTS_CHANNEL, (payload) => this.dispatch(payload));
      await this.listening;
    } catch (err) {
      this.listening = null;
      unsubscribe();
      throw err;
    }
    return unsubscribe;
  }

  private dispatch(payload: string) {
    let message: { ticket?: unknown; status?: unknown };
    try {
      message = JSON.parse(payload) as { ticket?: unknown; status?: unknown };
    } catch {
      return;
    }
    const { ticket, status } = message;
    if (typeof ticket !== "string" || !QR_STATUSES.includes(status as QrStatus)) return;
    for (const listener of this.watchers.get(ticket) ?? []) listener(status as QrStatus);
  }
}

/** The requester's address without its last part: enough to recognise a place, not a host. */
export function coarseIp(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(ip);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.*`;
  if (ip.includes(":")) {
    const groups = ip.split("::")[0]?.split(":").filter(Boolean) ?? [];
    return `${groups.slice(0, 3).join(":") || "0"}::*`;
  }
  return "未知";
}
