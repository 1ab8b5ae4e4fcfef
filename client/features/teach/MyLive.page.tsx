/** 我的直播 (/teach/live): this teacher's sessions from the last week on (every session for operators). */
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { teachLiveListSchema } from "../../../shared/contracts/admin-live";
import { liveStates } from "../../../shared/contracts/catalogue";
import { formatDateTime } from "../../../shared/format";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import "../../components/staff/staff.css";
import type { PageLoaderArgs } from "../../routing/nav-context";

export async function loader({ env, signal }: PageLoaderArgs) {
  const data = await env.api("/api/teach/live", { signal, schema: teachLiveListSchema });
  return { ...data, meta: { title: "我的直播", noindex: true } };
}

export default function MyLivePage() {
  const { sessions } = useLoaderData<typeof loader>();
  return (
    <Page lead="开播前在这里拿到推流密钥、检查推流；也可以调整时间、置顶消息、管理聊天。">
      {sessions.length === 0 ? (
        <EmptyState glyph="播" title="近期没有你的直播">
          <p>运营排好直播后，会出现在这里。</p>
        </EmptyState>
      ) : (
        <table className="staff-table card">
          <thead>
            <tr>
              <th scope="col">直播</th>
              <th scope="col">课程</th>
              <th scope="col">开始</th>
              <th scope="col">状态</th>
              <th scope="col">预约</th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.id}>
                <td>
                  <Link className="text-link" to={`/teach/live/${s.id}`}>
                    {s.title}
                  </Link>
                </td>
                <td>{s.courseTitle ?? "公开课"}</td>
                <td>
                  <time dateTime={s.startsAt}>{formatDateTime(s.startsAt)}</time>
                </td>
                <td>{liveStates[s.state]}</td>
                <td>{s.bookings}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}
