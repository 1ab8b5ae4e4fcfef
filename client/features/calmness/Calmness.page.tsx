/**
 * 静心习字: pick a character (the character of the day, one of 千字文, one from the learner's
 * courses, or typed), watch its stroke order, trace it or take the stroke quiz (each finished
 * character counts into today's diary), print A4 practice sheets, and browse 千字文 as model
 * sheets loaded as the reader scrolls. Space for what loads later is reserved, so nothing shifts.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import {
  glyphUrl,
  HAN,
  type MyPracticeCharacters,
  myPracticeCharactersSchema,
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
import { useRootData } from "../../lib/root-data";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { PrintSheets } from "./PrintSheets";
import { Trainer, usePhone } from "./Trainer";
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

function CharacterCard({ item, onPick }: { item: PracticeCharacter; onPick: (char: string) => void }) {
  const opensPhrase = item.index % 4 === 0;
  return (
    <figure className={`practice-card${opensPhrase ? " practice-card--phrase" : ""}`}>
      <button
        type="button"
        className="practice-card__pick"
        onClick={() => onPick(item.char)}
        aria-label={`练「${item.char}」`}
      />
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

/** What the first page of cards will occupy, so the footer does not jump when it arrives. */
function GallerySkeleton() {
  return (
    <section className="practice-gallery" aria-label="千字文范字" aria-busy="true">
      <h2>千字文 · 范字</h2>
      <p className="practice-gallery__status">正在铺纸研墨…</p>
      <div className="practice-skeleton" aria-hidden="true">
        {Array.from({ length: PAGE_SIZE }, (_, i) => (
          <div key={i} className="practice-skeleton__card" />
        ))}
      </div>
    </section>
  );
}

function Gallery({ onPick }: { onPick: (char: string) => void }) {
  const first = useFetchState("calmness:characters:0", () => fetchCharacters(0), { onServer: false });
  const [more, setMore] = useState<PracticeCharacter[]>([]);
  // A ref, not state: the list may ask again before React has re-rendered with the new offset.
  const nextOffset = useRef<number | null | undefined>(undefined);
  const firstNext = first.data?.nextOffset ?? null;
  const phone = usePhone();

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

  if (first.pending) return <GallerySkeleton />;
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
      <h2>
        千字文 · 范字 {first.data.distinct} 个
        <small className="practice-gallery__note">
          （前半篇 {first.data.total} 字，去掉重复的字后共 {first.data.distinct} 个不同的字，每个都有笔顺）
        </small>
      </h2>
      <Waterfall
        items={items}
        columns={phone ? 3 : 6}
        getKey={(item) => item.index}
        render={(item) => <CharacterCard item={item} onPick={onPick} />}
      />
      <InfiniteList onLoad={loadMore} identifier="calmness" />
    </section>
  );
}

type Source = "qianziwen" | "course" | "typed";

function CoursePicker({ onPick }: { onPick: (char: string) => void }) {
  const mine = useFetchState<MyPracticeCharacters>(
    "calmness:my-characters",
    () => browserApi("/api/practice/my-characters", { schema: myPracticeCharactersSchema }),
    { onServer: false },
  );
  if (mine.pending) return <p className="picker__status">正在取课程里的范字…</p>;
  if (mine.error || !mine.data)
    return (
      <p className="picker__status">
        没能取到课程范字。
        <button type="button" className="button button--small" onClick={() => void mine.refetch()}>
          重新加载
        </button>
      </p>
    );
  if (mine.data.courses.length === 0)
    return <p className="picker__status">你的课程里还没有布置范字的作业。可以从千字文里挑一个字，或者自己输入。</p>;
  return (
    <div className="picker__courses">
      {mine.data.courses.map((c) => (
        <div key={c.courseId} className="picker__course">
          <span className="picker__course-title">{c.title}</span>
          <span className="picker__chars">
            {[...c.characters].map((ch) => (
              <button key={ch} type="button" className="picker__char" onClick={() => onPick(ch)}>
                {ch}
              </button>
            ))}
          </span>
        </div>
      ))}
    </div>
  );
}

function Picker({ current, onPick, signedIn }: { current: string; onPick: (c: string) => void; signedIn: boolean }) {
  const [source, setSource] = useState<Source>("qianziwen");
  const [typed, setTyped] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const pickTyped = () => {
    const c = [...typed.trim()][0];
    if (!c || !HAN.test(c)) {
      setProblem("请输入一个汉字");
      return;
    }
    setProblem(null);
    onPick(c);
  };
  const tabs: Array<[Source, string]> = [
    ["qianziwen", "千字文"],
    ["course", "我的课程"],
    ["typed", "自己输入"],
  ];
  return (
    <div className="picker">
      <div role="tablist" aria-label="从哪里选字" className="picker__tabs">
        {tabs.map(([key, label]) => (
          <button
            key={key}
            type="button"
            role="tab"
            id={`picker-tab-${key}`}
            aria-controls="picker-panel"
            aria-selected={source === key}
            className={`picker__tab${source === key ? " is-active" : ""}`}
            onClick={() => setSource(key)}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="picker-panel" aria-labelledby={`picker-tab-${source}`} className="picker__panel">
        {source === "qianziwen" ? (
          <p className="picker__status">正在练「{current}」。在下面的千字文范字里点一个字，就换成那个字。</p>
        ) : source === "course" ? (
          signedIn ? (
            <CoursePicker onPick={onPick} />
          ) : (
            <p className="picker__status">登录后可以练自己课程作业里的范字。</p>
          )
        ) : (
          <form
            className="picker__typed"
            onSubmit={(e) => {
              e.preventDefault();
              pickTyped();
            }}
          >
            <input
              type="text"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              maxLength={4}
              placeholder="输入一个字"
              aria-label="要练的字"
            />
            <button type="submit" className="button button--small">
              练这个字
            </button>
            {problem ? <span className="picker__problem">{problem}</span> : null}
          </form>
        )}
      </div>
    </div>
  );
}

export default function CalmnessPage() {
  const { today } = useLoaderData<typeof loader>();
  const { character } = today;
  const signedIn = useRootData().viewer !== null;
  const [char, setChar] = useState(character.char);
  const trainerRef = useRef<HTMLElement>(null);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const pick = useCallback((c: string) => {
    setChar(c);
    trainerRef.current?.scrollIntoView({ behavior: "smooth", block: "start" });
  }, []);
  return (
    <Page lead="心静则笔稳。每天临一个字，从千字文开始。">
      <section className="practice-today" aria-label="今日一字">
        <LazyImage
          src={glyphUrl(character.char)}
          alt={`今日一字「${character.char}」`}
          width={200}
          height={200}
          className="practice-today__image"
          priority
        />
        <div className="practice-today__text">
          <p className="practice-today__date">{today.date} · 今日一字</p>
          <p className="practice-today__char">{character.char}</p>
          <p>
            出自「{character.phrase}」，千字文第 {character.index + 1}{" "}
            字。先读帖三遍，看清起笔、行笔与收笔，再在米字格里慢写十遍。
          </p>
          <p>
            在下面描完的字会自动记进 <Link to="/my/dairy">练字日记</Link>。
          </p>
        </div>
      </section>
      <section ref={trainerRef} className="practice-trainer" aria-label="描红与笔顺">
        <h2>描红 · 笔顺</h2>
        <Picker current={char} onPick={pick} signedIn={signedIn} />
        {hydrated ? <Trainer char={char} signedIn={signedIn} /> : <div className="trainer trainer--placeholder" />}
      </section>
      <PrintSheets initial={character.phrase} />
      <Gallery onPick={pick} />
    </Page>
  );
}
