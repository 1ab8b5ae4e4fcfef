/**
 * What every staff table shares (/api/admin/*, /api/teach/*): the page, its size, the sort
 * and a free-text search, read from the page's URL and handed on to the API unchanged, and
 * the answer's shape (the rows of this page and how many there are in all).
 */
import { z } from "zod";

export const STAFF_PAGE_SIZES = [20, 50, 100] as const;
const STAFF_DEFAULT_PAGE_SIZE = 20;

export const staffPageQuery = z.object({
  page: z.coerce.number().int().min(1, "页码从 1 开始").max(100_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (STAFF_PAGE_SIZES as readonly number[]).includes(n), "每页条数只能是 20、50 或 100")
    .default(STAFF_DEFAULT_PAGE_SIZE),
  sort: z.string().max(40).optional(),
  dir: z.enum(["asc", "desc"]).default("desc"),
  q: z.string().trim().max(100, "搜索词最多 100 个字").optional(),
});
export type StaffPageQuery = z.infer<typeof staffPageQuery>;

/** A page of rows and how many rows match in all. */
export function pagedOf<T extends z.ZodType>(row: T) {
  return z.object({
    rows: z.array(row),
    total: z.number().int().nonnegative(),
    page: z.number().int().positive(),
    pageSize: z.number().int().positive(),
  });
}
export interface Paged<T> {
  rows: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** One staff action as the audit log shows it. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorId: z.number().int().nullable(),
  actorName: z.string(),
  actorRole: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  reason: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const chinaDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "日期格式应为 YYYY-MM-DD");

export const auditQuery = staffPageQuery.extend({
  actor: z.coerce.number().int().positive().optional(),
  /** A dotted prefix: "order" matches order.ship, order.refund… */
  action: z
    .string()
    .regex(/^[a-z][a-z_.]*$/, "操作名只含小写字母、点和下划线")
    .max(60)
    .optional(),
  targetType: z
    .string()
    .regex(/^[a-z_]+$/)
    .max(40)
    .optional(),
  targetId: z.string().max(64).optional(),
  from: chinaDay.optional(),
  to: chinaDay.optional(),
});
export type AuditQuery = z.infer<typeof auditQuery>;

/**
 * Whether the audit log's hash chain is whole. `broken` names the first row that fails:
 * altered (its content changed), unlinked (a row before it was deleted), cut (the newest rows
 * were deleted; `id` is the newest row left, null when none is left).
 */
export const auditChainSchema = z.object({
  intact: z.boolean(),
  count: z.number().int(),
  broken: z
    .object({
      id: z.number().int().nullable(),
      at: z.string().nullable(),
      action: z.string().nullable(),
      problem: z.enum(["altered", "unlinked", "cut"]),
    })
    .nullable(),
  /** When every row was last read (between those walks only the new rows are). */
  fullCheckAt: z.string(),
});
export type AuditChain = z.infer<typeof auditChainSchema>;
