/**
 * 练字日记: today's entry (minutes, characters, a note and a photo; one missed day can be made up
 * the next day), streaks and totals, a year heat map of practice minutes by China date, the
 * minutes of the last twelve weeks and the characters practised most. Writing today's entry is
 * the day's check-in (coins once a day); tracing at /calmness adds to it by itself.
 */
import { type FormEvent, useState } from "react";
import { useLoaderData } from "react-router-dom";
import { Link } from "../../routing/link";
import { type DiaryEntry, diaryEntryInputSchema, type DiarySummary } from "../../../shared/contracts/practice";
import { FormAlert } from "../../components/form/FormAlert";
import { EmptyState } from "../../components/EmptyState";
import { Page } from "../../components/Page";
import { browserApi } from "../../lib/api";
import type { PageLoaderArgs } from "../../routing/nav-context";
import { HeatMap, WeekBars } from "./practice-charts";
import "@fontsource/ma-shan-zheng/400.css";
import "./practice.css";
import { localProblem, useMutation } from "../../lib/mutation";

export async function loader({ env, signal }: PageLoaderArgs) {
  const summary = await env.api("/api/practice/diary", {
    signal,
    schema: import("../../../shared/contracts/practice").then((m) => m.diarySummarySchema),
  });
  return { summary, meta: { title: "练字日记", description: "每天的练字时长、所写的字与习作照片。", noindex: true } };
}

const fetchSummary = () =>
  browserApi("/api/practice/diary", {
    schema: import("../../../shared/contracts/practice").then((m) => m.diarySummarySchema),
  });

function Stat({ label, value, unit, testId }: { label: string; value: number; unit: string; testId?: string }) {
  return (
    <div className="diary-stat" data-testid={testId}>
      <span className="diary-stat__value">{value}</span>
      <span className="diary-stat__unit">{unit}</span>
      <span className="diary-stat__label">{label}</span>
    </div>
  );
}

async function uploadPhoto(date: string, file: File): Promise<void> {
  const res = await fetch(`/api/practice/diary/${date}/photo`, {
    method: "POST",
    headers: { "Content-Type": file.type || "application/octet-stream", Accept: "application/json" },
    body: file,
    credentials: "same-origin",
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(body?.error?.message ?? "照片上传失败，请稍后再试");
  }
}

function EntryForm({
  date,
  entry,
  makeUp,
  onSaved,
}: {
  date: string;
  entry: DiaryEntry | undefined;
  makeUp: boolean;
  onSaved: (message: string) => Promise<void>;
}) {
  const [minutes, setMinutes] = useState(String(entry?.ownMinutes ?? ""));
  const [characters, setCharacters] = useState(entry?.characters ?? "");
  const [note, setNote] = useState(entry?.note ?? "");
  const [file, setFile] = useState<File | null>(null);
  const [keepPhoto, setKeepPhoto] = useState(true);
  const { busy, problem, setProblem, run } = useMutation();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = diaryEntryInputSchema.safeParse({
      minutes: minutes.trim() === "" ? 0 : Number(minutes),
      characters,
      note,
      keepPhoto,
    });
    if (!parsed.success) {
      setProblem(localProblem(parsed.error.issues[0]?.message ?? "日记内容不正确"));
      return;
    }
    void run(async () => {
      const saved = await browserApi(`/api/practice/diary/${date}`, {
        method: "PUT",
        body: parsed.data,
        schema: import("../../../shared/contracts/practice").then((m) => m.diarySaveResultSchema),
      });
      if (file) await uploadPhoto(date, file);
      await onSaved(saved.message);
    });
  };

  const traced = entry?.tracedMinutes ?? 0;
  return (
    <form className="card diary-form" onSubmit={submit} aria-label={makeUp ? "补写昨天的日记" : "今天的日记"}>
      <h2 className="diary-form__title">
        {makeUp ? `补写 ${date}` : `今天 ${date}`}
        {entry?.madeUp ? <span className="diary-tag">补写</span> : null}
      </h2>
      {traced > 0 ? (
        <p className="diary-form__traced" data-testid="diary-traced">
          静心习字已记 {traced} 分钟：{entry?.tracedCharacters}
        </p>
      ) : null}
      <label className="diary-field">
        <span>{traced > 0 ? "另外练了多少分钟" : "练了多少分钟"}</span>
        <input
          type="number"
          inputMode="numeric"
          min={0}
          max={1440}
          value={minutes}
          onChange={(e) => setMinutes(e.target.value)}
          placeholder="30"
        />
      </label>
      <label className="diary-field">
        <span>练了哪些字</span>
        <input
          type="text"
          value={characters}
          onChange={(e) => setCharacters(e.target.value)}
          placeholder="例如：永和九年"
          maxLength={200}
        />
      </label>
      <label className="diary-field">
        <span>心得</span>
        <textarea value={note} onChange={(e) => setNote(e.target.value)} rows={3} maxLength={500} />
      </label>
      <div className="diary-field">
        <span>习作照片（可选）</span>
        {entry?.photo && keepPhoto ? (
          <div className="diary-photo">
            <img src={entry.photo.thumbUrl} alt="当天的习作" width={120} height={120} />
            <button type="button" className="button button--small" onClick={() => setKeepPhoto(false)}>
              移除照片
            </button>
          </div>
        ) : null}
        <input
          type="file"
          accept="image/jpeg,image/png,image/webp"
          aria-label="选择习作照片"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
      </div>
      <FormAlert problem={problem} />
      <button type="submit" className="button button--primary" disabled={busy}>
        {busy ? "保存中…" : entry ? "保存修改" : makeUp ? "补写这一天" : "写好了，打卡"}
      </button>
    </form>
  );
}

function EntryCard({ entry }: { entry: DiaryEntry }) {
  return (
    <li className="diary-entry">
      <div className="diary-entry__head">
        <span className="diary-entry__date">{entry.date}</span>
        <span>{entry.minutes} 分钟</span>
        {entry.madeUp ? <span className="diary-tag">补写</span> : null}
      </div>
      {entry.characters ? <p className="diary-entry__chars">{entry.characters}</p> : null}
      {entry.note ? <p className="diary-entry__note">{entry.note}</p> : null}
      {entry.photo ? (
        <a href={entry.photo.url} target="_blank" rel="noopener noreferrer">
          <img src={entry.photo.thumbUrl} alt={`${entry.date} 的习作`} width={96} height={96} loading="lazy" />
        </a>
      ) : null}
    </li>
  );
}

export default function DairyPage() {
  const { summary: initial } = useLoaderData<typeof loader>();
  const [summary, setSummary] = useState<DiarySummary>(initial);
  const [message, setMessage] = useState<string | null>(null);
  const [makeUp, setMakeUp] = useState(false);
  const [formKey, setFormKey] = useState(0);

  const date = makeUp && summary.makeUpDate ? summary.makeUpDate : summary.today;
  const entry = summary.entries.find((e) => e.date === date);
  const topMax = summary.topCharacters[0]?.days ?? 1;

  const saved = async (text: string) => {
    setSummary(await fetchSummary());
    setMessage(text);
    setFormKey((k) => k + 1);
  };

  return (
    <Page lead="每天写一点，记下时长、所写的字和一张习作；连续打卡会点亮下面的墨色格子。">
      <section className="diary-stats" aria-label="练字统计">
        <Stat label="连续打卡" value={summary.streak.current} unit="天" testId="streak-current" />
        <Stat label="最长连续" value={summary.streak.longest} unit="天" />
        <Stat label="累计练字" value={summary.totals.days} unit="天" />
        <Stat label="累计时长" value={summary.totals.minutes} unit="分钟" testId="total-minutes" />
        <Stat label="累计写字" value={summary.totals.characters} unit="字" />
      </section>

      <div className="diary-layout">
        <div>
          {summary.makeUpDate ? (
            <div className="diary-switch" role="group" aria-label="写哪一天">
              <button
                type="button"
                className={`button button--small${makeUp ? "" : " button--primary"}`}
                aria-pressed={!makeUp}
                onClick={() => {
                  setMakeUp(false);
                  setFormKey((k) => k + 1);
                }}
              >
                今天
              </button>
              <button
                type="button"
                className={`button button--small${makeUp ? " button--primary" : ""}`}
                aria-pressed={makeUp}
                onClick={() => {
                  setMakeUp(true);
                  setFormKey((k) => k + 1);
                }}
              >
                补写昨天（{summary.makeUpDate}）
              </button>
            </div>
          ) : null}
          {message ? (
            <p className="diary-message" role="status">
              {message}
            </p>
          ) : null}
          <EntryForm key={`${date}:${formKey}`} date={date} entry={entry} makeUp={makeUp} onSaved={saved} />
          <p className="diary-hint">
            今天的日记当天都能修改；漏掉一天，第二天还可以补写，更早的就不能补了。写下今天的日记即完成每日打卡（
            {summary.coinsToday ? "今日金币已领取" : "可得 5 金币"}）。 在 <Link to="/calmness">静心习字</Link>{" "}
            描完的字会自动记进来。
          </p>
        </div>

        <div className="diary-charts">
          <section className="card diary-card" aria-labelledby="heat-title">
            <h2 id="heat-title">一年的练字</h2>
            <HeatMap today={summary.today} days={summary.heat} />
          </section>
          <section className="card diary-card" aria-labelledby="weeks-title">
            <h2 id="weeks-title">近 12 周每周练字分钟数</h2>
            <WeekBars weeks={summary.weeks} />
          </section>
          <section className="card diary-card" aria-labelledby="top-title">
            <h2 id="top-title">最常练的字</h2>
            {summary.topCharacters.length === 0 ? (
              <p className="diary-muted">写下练了哪些字，这里会按天数排出你最常练的字。</p>
            ) : (
              <ul className="diary-top">
                {summary.topCharacters.map((c) => (
                  <li
                    key={c.char}
                    className="diary-top__char"
                    style={{ fontSize: `${22 + Math.round((c.days / topMax) * 22)}px` }}
                    title={`${c.char}：${c.days} 天`}
                  >
                    {c.char}
                    <span className="diary-top__days">{c.days}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
      </div>

      <section aria-labelledby="recent-title" className="diary-recent">
        <h2 id="recent-title">最近的日记</h2>
        {summary.entries.length === 0 ? (
          <EmptyState glyph="记" title="还没有日记">
            <p>写下今天练了多少分钟、哪些字，就是第一篇。</p>
          </EmptyState>
        ) : (
          <ul className="diary-entries">
            {summary.entries.map((e) => (
              <EntryCard key={e.date} entry={e} />
            ))}
          </ul>
        )}
      </section>
    </Page>
  );
}
