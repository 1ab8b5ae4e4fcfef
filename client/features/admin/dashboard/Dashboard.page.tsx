/**
 * 运营看板 (/admin): what came in today (the China day) and what waits for someone — each figure
 * a link to the list it counts.
 */
import { useLoaderData } from "react-router-dom";
import { Link } from "../../../routing/link";
import { adminDashboardSchema, type AdminDashboard } from "../../../../shared/contracts/admin-orders";
import { formatDateTime } from "../../../../shared/format";
import { formatMoney } from "../../../../shared/money";
import { Page } from "../../../components/Page";
import type { PageLoaderArgs } from "../../../routing/nav-context";
import { DeskBusy, formatAge, LoadFailed, loaded } from "../desk-parts";
import "../desk.css";

export async function loader({ env, signal }: PageLoaderArgs) {
  const dashboard = await loaded(env.api("/api/admin/dashboard", { signal, schema: adminDashboardSchema }));
  return { dashboard, meta: { title: "运营看板", noindex: true } };
}

interface Tile {
  label: string;
  value: string;
  note?: string;
  to: string;
  /** Something waits for an operator: the figure is marked. */
  alert?: boolean;
}

function tilesOf(d: AdminDashboard): { title: string; tiles: Tile[] }[] {
  const now = Date.parse(d.serverNow);
  return [
    {
      title: `今日（${d.day}）`,
      tiles: [
        { label: "今日订单", value: String(d.ordersToday), to: `/admin/orders?from=${d.day}&to=${d.day}` },
        {
          label: "今日收入",
          value: formatMoney(d.revenueTodayCents),
          note: `${d.paidToday} 笔已支付`,
          to: `/admin/orders?from=${d.day}&to=${d.day}&sort=payCents`,
        },
        {
          label: "今日直播",
          value: String(d.liveToday),
          note: d.liveOnAir ? `${d.liveOnAir} 场正在直播` : undefined,
          to: `/admin/live?from=${d.day}&sort=startsAt&dir=asc`,
        },
      ],
    },
    {
      title: "待处理",
      tiles: [
        {
          label: "待发货",
          value: String(d.toShip),
          to: "/admin/orders?state=awaiting_shipment&sort=createdAt&dir=asc",
          alert: d.toShip > 0,
        },
        {
          label: "兑换待发货",
          value: String(d.redemptionsToShip),
          to: "/admin/shipping?state=awaiting_shipment",
          alert: d.redemptionsToShip > 0,
        },
        {
          label: "待审核退货",
          value: String(d.returnsWaiting),
          to: "/admin/orders?state=return_requested&sort=createdAt&dir=asc",
          alert: d.returnsWaiting > 0,
        },
        { label: "退款处理中", value: String(d.refundsProcessing), to: "/admin/orders?state=refunding" },
        {
          label: "退款被拒绝",
          value: String(d.refundsFailed),
          note: "支付渠道未能退款，需重试",
          to: "/admin/orders?state=refund_failed",
          alert: d.refundsFailed > 0,
        },
        {
          label: "待批改作业",
          value: String(d.homeworkWaiting),
          note: d.homeworkOldestAt ? `最早的已等 ${formatAge(now - Date.parse(d.homeworkOldestAt))}` : undefined,
          to: "/teach/homework",
          alert: d.homeworkWaiting > 0,
        },
        {
          label: "失败的后台任务",
          value: String(d.failedJobs.length),
          to: "#failed-jobs",
          alert: d.failedJobs.length > 0,
        },
      ],
    },
  ];
}

export default function DashboardPage() {
  const { dashboard } = useLoaderData<typeof loader>();
  if (!dashboard.ok)
    return (
      <Page>
        <LoadFailed problem={dashboard.problem} what="看板数据" />
      </Page>
    );
  const d = dashboard.data;
  return (
    <Page lead={`数据更新于 ${formatDateTime(d.serverNow)}（北京时间）`}>
      <DeskBusy>
        {tilesOf(d).map((group) => (
          <section key={group.title} className="desk-tiles" aria-label={group.title}>
            <h2 className="desk-tiles__title">{group.title}</h2>
            <ul className="desk-tiles__list">
              {group.tiles.map((t) => (
                <li key={t.label}>
                  <Link className={`card desk-tile${t.alert ? " desk-tile--alert" : ""}`} to={t.to}>
                    <span className="desk-tile__label">{t.label}</span>
                    <span className="desk-tile__value">{t.value}</span>
                    {t.note ? <span className="desk-tile__note">{t.note}</span> : null}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
        <section id="failed-jobs" className="desk-section" aria-label="失败的后台任务">
          <h2 className="desk-tiles__title">失败的后台任务</h2>
          {d.failedJobs.length === 0 ? (
            <p className="desk-muted">所有后台任务最近一次都运行成功。</p>
          ) : (
            <table className="desk-table">
              <thead>
                <tr>
                  <th scope="col">任务</th>
                  <th scope="col">最近失败</th>
                  <th scope="col">近 7 天失败次数</th>
                  <th scope="col">错误</th>
                </tr>
              </thead>
              <tbody>
                {d.failedJobs.map((j) => (
                  <tr key={j.job}>
                    <td>
                      <code>{j.job}</code>
                    </td>
                    <td>{formatDateTime(j.at)}</td>
                    <td>{j.failedRuns}</td>
                    <td>{j.error ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </DeskBusy>
    </Page>
  );
}
