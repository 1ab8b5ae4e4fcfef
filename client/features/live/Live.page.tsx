/**
 * 直播 (/live): the schedule by tab (?tab=today|upcoming|live|ended, rendered on the server),
 * each session a card with what can be done now: enter the room (a new window), book a
 * reminder, watch the replay. Each session is also a schema.org Event.
 */
import { useState } from "react";
import { useLoaderData, useNavigation } from "react-router-dom";
import { Link } from "../../routing/link";
import { type LiveListItem, type LiveList, type LiveTab, liveTabKeys, liveTabs } from "../../../shared/contracts/live";
import { normalizeError } from "../../../shared/errors";
import { LiveCard } from "../../components/cards/CatalogueCards";
import { EmptyState } from "../../components/EmptyState";
import { LoginDialog } from "../../components/LoginDialog";
import { NewWindowLink } from "../../components/NewWindowLink";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { BookingButton } from "./BookingButton";
import { LiveLoadError } from "./live-errors";
import { liveEventJsonLd } from "./live-event";
import "./live.css";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const liveContract = () => import("../../../shared/contracts/live");

const DESCRIPTION =
  "墨池课堂直播课：名师在线示范书写、当堂答疑。查看今日与即将开始的直播，预约开播提醒，进入直播间或观看回放。";

function tabOf(request: Request): LiveTab {
  const tab = new URL(request.url).searchParams.get("tab");
  return liveTabKeys.find((key) => key === tab) ?? "today";
}

export async function loader({ request, env, signal }: PageLoaderArgs) {
  const tab = tabOf(request);
  const canonicalSearch = tab === "today" ? "" : `?tab=${tab}`;
  const title = "直播";
  try {
    const list = await env.api(`/api/live?tab=${tab}`, {
      signal,
      schema: liveContract().then((m) => m.liveListSchema),
    });
    // The list shows no countdown: without the server's clock (which the API sends for the rooms)
    // the page is the same for every anonymous visitor, and the page cache can keep it.
    const { serverNow: _clock, ...shown } = list;
    return {
      tab,
      list: shown,
      errorStatus: null,
      meta: {
        title,
        description: DESCRIPTION,
        canonicalSearch,
        jsonLd: list.items.map((item) => liveEventJsonLd(item, list.site)),
      },
    };
  } catch (err) {
    // A newer navigation: let the router drop this one. Anything else: the page says so and offers a retry.
    if (signal.aborted) throw err;
    return {
      tab,
      list: null,
      errorStatus: normalizeError(err).statusCode,
      meta: { title, description: DESCRIPTION, canonicalSearch },
    };
  }
}

const emptyTexts: Record<LiveTab, { title: string; text: string; next?: LiveTab }> = {
  today: { title: "今天没有直播课", text: "看看接下来几天的安排，预约后开播时会提醒你。", next: "upcoming" },
  upcoming: {
    title: "近期还没有新的直播排课",
    text: "老师排好课后会出现在这里，也可以先看看已结束直播的回放。",
    next: "ended",
  },
  live: { title: "现在没有正在进行的直播", text: "可以预约即将开始的直播，开播时会提醒你。", next: "upcoming" },
  ended: { title: "还没有结束的直播", text: "直播结束后两小时内会生成回放，届时可以在这里观看。", next: "upcoming" },
};

export default function LivePage() {
  const data = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/live";
  return (
    <Page
      lead="名师在线示范书写、当堂答疑。预约后开播时会提醒你，在直播间观看满 10 分钟计为出勤。"
      actions={
        <Link className="text-link" to="/guide/live">
          第一次上直播课？看看直播课指南
        </Link>
      }
    >
      <nav className="live-tabs" aria-label="直播分类">
        {liveTabKeys.map((key) => (
          <Link
            key={key}
            to={key === "today" ? "/live" : `/live?tab=${key}`}
            className={`live-tabs__tab${key === data.tab ? " is-active" : ""}`}
            aria-current={key === data.tab ? "page" : undefined}
          >
            {liveTabs[key]}
          </Link>
        ))}
      </nav>
      <div className={`live-schedule${loading ? " is-loading" : ""}`} aria-busy={loading}>
        {loading ? (
          <p className="live-schedule__loading" role="status">
            正在加载直播安排…
          </p>
        ) : null}
        {data.list ? (
          <Schedule key={data.tab} tab={data.tab} list={data.list} />
        ) : (
          <LiveLoadError title="直播安排没能加载出来" status={data.errorStatus} />
        )}
      </div>
    </Page>
  );
}

function Schedule({ tab, list }: { tab: LiveTab; list: Omit<LiveList, "serverNow"> }) {
  const [booked, setBooked] = useState<Record<number, boolean>>({});
  const [loginOpen, setLoginOpen] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  if (list.items.length === 0) {
    const empty = emptyTexts[tab];
    return (
      <EmptyState
        glyph="播"
        title={empty.title}
        action={
          empty.next ? (
            <Link className="button" to={`/live?tab=${empty.next}`}>
              看看{liveTabs[empty.next]}
            </Link>
          ) : null
        }
      >
        <p>{empty.text}</p>
      </EmptyState>
    );
  }

  return (
    <>
      {problem ? (
        <p className="live-alert" role="alert">
          {problem}
          <button type="button" className="live-alert__close" aria-label="知道了" onClick={() => setProblem(null)}>
            ×
          </button>
        </p>
      ) : null}
      <h2 className="visually-hidden">直播列表</h2>
      <ul className="catalogue-grid live-grid">
        {list.items.map((item, index) => (
          <li key={item.id}>
            <LiveCard
              live={item}
              // The first row is above the fold: its covers come with the document.
              priority={index < 4}
              action={
                <SessionActions
                  item={item}
                  booked={booked[item.id] ?? item.booked}
                  signedIn={list.signedIn}
                  onBooked={(value) => {
                    setProblem(null);
                    setBooked((prev) => ({ ...prev, [item.id]: value }));
                  }}
                  onSignIn={() => setLoginOpen(true)}
                  onError={setProblem}
                />
              }
            />
          </li>
        ))}
      </ul>
      <LoginDialog open={loginOpen} onClose={() => setLoginOpen(false)} />
    </>
  );
}

function SessionActions({
  item,
  booked,
  signedIn,
  onBooked,
  onSignIn,
  onError,
}: {
  item: LiveListItem;
  booked: boolean;
  signedIn: boolean;
  onBooked: (booked: boolean) => void;
  onSignIn: () => void;
  onError: (message: string) => void;
}) {
  switch (item.state) {
    case "live":
      return (
        <span className="live-actions">
          <NewWindowLink href={`/live/${item.id}`} className="button button--primary button--small">
            进入直播间
          </NewWindowLink>
        </span>
      );
    case "scheduled":
      return (
        <span className="live-actions">
          <BookingButton
            liveId={item.id}
            title={item.title}
            booked={booked}
            signedIn={signedIn}
            access={item.access}
            courseTitle={item.courseTitle}
            onChange={(result) => onBooked(result.booked)}
            onSignIn={onSignIn}
            onError={onError}
          />
          <Link className="text-link live-actions__more" to={`/live/${item.id}`}>
            详情
          </Link>
        </span>
      );
    case "replay":
      return (
        <span className="live-actions">
          <Link className="button button--small" to={`/playback?id=${item.id}`}>
            看回放
          </Link>
        </span>
      );
    case "cancelled":
      return (
        <span className="live-actions">
          <span className="live-actions__note">已取消</span>
        </span>
      );
    default:
      return (
        <span className="live-actions">
          <span className="live-actions__note">回放生成中</span>
          <Link className="text-link live-actions__more" to={`/live/${item.id}`}>
            详情
          </Link>
        </span>
      );
  }
}
