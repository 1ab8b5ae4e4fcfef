/**
 * 静心习字: the character of the day (page data, rendered on the server) and the whole text of
 * 千字文 as practice sheets, fetched by the page itself and loaded as the reader scrolls.
 */
import { useCallback, useRef, useState } from "react";
import { Link, useLoaderData } from "react-router-dom";
import {
  glyphUrl,
  type PracticeCharacter,
  type PracticePage,
  practicePageSchema,
  practiceTodaySchema,
} from "../../../shared/contracts/practice";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import { browserApi } from "../../lib/api";
import { useFetchState } from "../../lib/fetch-state";
import { InfiniteList, type InfiniteLoadState } from "../../lib/infinite-list";
import { LazyImage } from "../../lib/lazy-image";
import { Waterfall } from "../../lib/waterfall";
import type { PageLoaderArgs } from "../../routing/nav-context";
import "./calmness.css";

const PAGE_SIZE = 24;

export async function loader({ env, signal }: PageLoaderArgs) {
  const today = await env.api("/api/practice/today", { signal, schema: practiceTodaySchema });
  return {
    today,
    meta: { title: "静心习字", description: `今日一字「${today.character.char}」：临写千字文，每天一字，静心习字。` },
  };
}

function fetchCharacters(offset: number): Promise<PracticePage> {
  return browserApi(`/api/practice/characters?offset=${offset}&limit=${PAGE_SIZE}`, { schema: practicePageSchema });
}

function CharacterCard({ item }: { item: PracticeCharacter }) {
  const opensPhrase = item.index % 4 === 0;
  return (
    <figure className={`practice-card${opensPhrase ? " practice-card--phrase" : ""}`}>
      <LazyImage
        src={glyphUrl(item.char)}
        alt={`「${item.char}」米字格范字`}
        width={200}
        height={200}
        className="practice-card__image"
      />
      <figcaption className="practice-card__caption">
        <span className="practice-card__index">第 {item.index + 1} 字</span>
        {opensPhrase ? <span className="practice-card__phrase">{item.phrase}</span> : null}
      </figcaption>
    </figure>
  );
}

function Gallery() {
  const first = useFetchState("calmness:characters:0", () => fetchCharacters(0), { onServer: false });
  const [more, setMore] = useState<PracticeCharacter[]>([]);
  // A ref, not state: the list may ask again before React has re-rendered with the new offset.
  const nextOffset = useRef<number | null | undefined>(undefined);
  const firstNext = first.data?.nextOffset ?? null;

  const items = first.data ? [...first.data.items, ...more] : [];

  const loadMore = useCallback(
    async (state: InfiniteLoadState) => {
      const offset = nextOffset.current === undefined ? firstNext : nextOffset.current;
      if (offset === null) {
        state.complete();
        return;
      }
      try {
        const page = await fetchCharacters(offset);
        nextOffset.current = page.nextOffset;
        setMore((prev) => [...prev, ...page.items]);
        if (page.nextOffset === null) state.complete();
        else state.loaded();
      } catch {
        state.error();
      }
    },
    [firstNext],
  );

  if (first.pending) return <p className="practice-gallery__status">正在铺纸研墨…</p>;
  if (first.error || !first.data) {
    return (
      <EmptyState
        glyph="误"
        title="范字没能加载出来"
        action={
          <button type="button" className="button" onClick={() => void first.refetch()}>
            重新加载
          </button>
        }
      >
        {first.error?.message}
      </EmptyState>
    );
  }
  return (
    <section className="practice-gallery" aria-label="千字文范字">
      <h2>千字文 · 范字 {first.data.total} 个</h2>
      <Waterfall
        items={items}
        columns={6}
        getKey={(item) => item.index}
        render={(item) => <CharacterCard item={item} />}
      />
      <InfiniteList onLoad={loadMore} identifier="calmness" />
    </section>
  );
}

export default function CalmnessPage() {
  const { today } = useLoaderData<typeof loader>();
  const { character } = today;
  return (
    <Page lead="心静则笔稳。每天临一个字，从千字文开始。">
      <section className="practice-today" aria-label="今日一字">
        <LazyImage
          src={glyphUrl(character.char)}
          alt={`今日一字「${character.char}」`}
          width={200}
          height={200}
          className="practice-today__image"
        />
        <div className="practice-today__text">
          <p className="practice-today__date">{today.date} · 今日一字</p>
          <p className="practice-today__char">{character.char}</p>
          <p>
            出自「{character.phrase}」，千字文第 {character.index + 1}{" "}
            字。先读帖三遍，看清起笔、行笔与收笔，再在米字格里慢写十遍。
          </p>
          <p>
            写完可以记在 <Link to="/my/dairy">练字日记</Link> 里。
          </p>
        </div>
      </section>
      <Gallery />
    </Page>
  );
}
