/** 公开课 (/video): free lessons anyone can watch, each opening in the player. */
import { useLoaderData } from "react-router-dom";
import { isoDuration } from "../../../shared/contracts/learning";
import { Page } from "../../components/Page";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { NoPublicItems, PublicItemGrid, publicItemCover, publicItemPath } from "./PublicItemCard";
import "./video.css";

/** Contracts load with the first request that needs them, not with the page (decision 030). */
const learningContract = () => import("../../../shared/contracts/learning");

export async function loader({ signal, env }: PageLoaderArgs) {
  const list = await env.api("/api/learning/public-items", {
    signal,
    schema: learningContract().then((m) => m.publicItemListSchema),
  });
  return {
    list,
    meta: {
      title: "公开课",
      description: "免费书法与写作公开课：执笔、基本笔画、行书连带、隶书蚕头燕尾、硬笔握笔，不用登录就能看。",
      jsonLd: {
        "@type": "ItemList",
        name: "公开课",
        itemListElement: list.items.map((item, index) => ({
          "@type": "ListItem",
          position: index + 1,
          url: publicItemPath(item.id),
          item: {
            "@type": "VideoObject",
            name: item.title,
            description: item.summary,
            thumbnailUrl: [publicItemCover(item)],
            uploadDate: item.publishedAt,
            duration: isoDuration(item.durationSeconds),
          },
        })),
      },
    },
  };
}

export default function VideoListPage() {
  const { list } = useLoaderData<typeof loader>();
  return (
    <Page lead="免费观看，不用登录。先看老师怎么讲、怎么写，再决定报哪门课。">
      {list.items.length === 0 ? (
        <NoPublicItems />
      ) : (
        <section aria-labelledby="public-list-title">
          <h2 className="section-title" id="public-list-title">
            全部公开课 · {list.items.length} 节
          </h2>
          <p className="section-lead">每节几分钟，讲清一个要点。登录后，倍速会在所有设备上保持一致。</p>
          <PublicItemGrid items={list.items} firstRow={4} />
        </section>
      )}
    </Page>
  );
}
