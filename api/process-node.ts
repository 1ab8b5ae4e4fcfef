/**
 * This process among the site's nodes, as claims that outlive a request name their holder
 * (idempotency leases): host and pid for a reader, and a random part chosen at start, because a
 * restarted container has the same host name and often the same pid (1) as the one that died.
 */
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";

export const PROCESS_NODE = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
