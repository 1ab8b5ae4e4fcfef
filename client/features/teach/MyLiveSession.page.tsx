/** 一场直播 (/teach/live/:id): stream key and the go-live check, the time, the pinned message, the chat. */
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { adminLiveSchema } from "../../../shared/contracts/admin-live";
import { liveStates } from "../../../shared/contracts/catalogue";
import { formatDateTime } from "../../../shared/format";
import { Page } from "../../components/Page";
import { ChatModeration, IngestPanel, MoveForm, PinForm } from "../../components/staff/live-controls";
import type { PageLoaderArgs } from "../../routing/nav-context";

export async function loader({ env, signal, params }: PageLoaderArgs) {
  const live = await env.api(`/api/teach/live/${params.id ?? ""}`, { signal, schema: adminLiveSchema });
  return { live, meta: { title: live.title, noindex: true } };
}

export default function MyLiveSessionPage() {
  const { live } = useLoaderData<typeof loader>();
  const base = `/api/teach/live/${live.id}`;
  return (
    <Page
      title={live.title}
      lead={
        <>
          <Link to="/teach/live">← 我的直播</Link> · {liveStates[live.state]} ·{" "}
          <time dateTime={live.startsAt} data-testid="live-starts">
            {formatDateTime(live.startsAt)}
          </time>{" "}
          开始 · {live.bookings} 人预约 ·{" "}
          <Link className="text-link" to={`/live/${live.id}`}>
            进入直播间
          </Link>
        </>
      }
    >
      <IngestPanel live={live} />
      <section className="card staff-panel" aria-labelledby="move-title">
        <h2 id="move-title">直播时间</h2>
        <MoveForm live={live} endpoint={`${base}/schedule`} method="PUT" />
      </section>
      <section className="card staff-panel" aria-labelledby="pin-title">
        <h2 id="pin-title">置顶消息</h2>
        <PinForm key={live.pinnedMessage ?? ""} live={live} endpoint={`${base}/pin`} />
      </section>
      <ChatModeration base={base} canHide={false} />
    </Page>
  );
}
