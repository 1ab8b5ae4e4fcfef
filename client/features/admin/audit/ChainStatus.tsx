/** The line above the audit log that says whether its hash chain is whole, or where it breaks. */
import type { AuditChain } from "../../../../shared/contracts/staff";
import { formatDateTime } from "../../../../shared/format";
import type { Loaded } from "../desk-parts";

/** What an operator reads about the chain: the headline, and the detail under it. */
export function chainMessage(chain: AuditChain): { headline: string; detail: string } {
  const checked = `哈希链上次逐条核对：${formatDateTime(chain.fullCheckAt)}`;
  const { broken } = chain;
  if (!broken) return { headline: `审计记录完整（共 ${chain.count} 条）`, detail: `${checked}。` };
  const what = broken.at ? `（${formatDateTime(broken.at)}，${broken.action ?? ""}）` : "";
  const advice = "请立即联系技术负责人，用 npm run audit:verify 复核，并保留数据库现状以便追查。";
  switch (broken.problem) {
    case "altered":
      return {
        headline: `第 ${broken.id} 条记录被改动${what}`,
        detail: `这条记录的内容与写入时的哈希对不上。${advice}`,
      };
    case "unlinked":
      return {
        headline: `第 ${broken.id} 条记录之前的记录被删除或改动${what}`,
        detail: `这条记录所链接的上一条记录已经不在原处。${advice}`,
      };
    case "cut":
      return {
        headline: broken.id === null ? "审计记录已被全部删除" : `第 ${broken.id} 条之后的记录被删除${what}`,
        detail: `最新的记录少了，哈希链的链头指向更晚的一条。${advice}`,
      };
  }
}

export function ChainStatus({ chain }: { chain: Loaded<AuditChain> }) {
  if (!chain.ok) {
    return (
      <p className="audit-chain" role="status">
        审计记录的完整性这次没有核对成功：{chain.problem.message}
      </p>
    );
  }
  const { headline, detail } = chainMessage(chain.data);
  return (
    <div
      className="audit-chain"
      data-intact={chain.data.intact}
      role={chain.data.intact ? "status" : "alert"}
      aria-live={chain.data.intact ? "polite" : undefined}
    >
      <p className="audit-chain__headline">{headline}</p>
      <p className="desk-muted">{detail}</p>
    </div>
  );
}
