/**
 * Tracing practice for one character: its stroke order animated, tracing over the model, and a
 * quiz that checks each stroke and shows a hint after two misses (hanzi-writer, loaded on first
 * use; each character's stroke data fetched from our own server on demand). A finished character
 * is added to today's diary. A quiet full-screen mode with a timer.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from "react";
import { type DiarySaveResult, diarySaveResultSchema, strokesUrl } from "../../../shared/contracts/practice";
import { browserApi } from "../../lib/api";

export type GridStyle = "tian" | "mi" | "jiugong";
export const gridNames: Record<GridStyle, string> = { tian: "田字格", mi: "米字格", jiugong: "九宫格" };
type Mode = "animate" | "trace" | "quiz";
const modeNames: Record<Mode, string> = { animate: "笔顺演示", trace: "描红", quiz: "默写测验" };

export const TRAINER_SIZE = 320;
export const TRAINER_PADDING = 16;
/** The largest writing square on a phone (its width decides, up to this). */
export const PHONE_TRAINER_MAX = 480;
const PHONE = "(max-width: 480px)";

/** Whether the screen is a phone's (the stylesheets' phone breakpoint); false on the server. */
export function usePhone(): boolean {
  return useSyncExternalStore(
    (change) => {
      const query = window.matchMedia(PHONE);
      query.addEventListener("change", change);
      return () => query.removeEventListener("change", change);
    },
    () => window.matchMedia(PHONE).matches,
    () => false,
  );
}

/**
 * The writing square's side: today's 320 px on wider screens, on a phone the whole width the
 * board has (whole pixels, so the strokes land where the finger is).
 */
export function trainerSize(phone: boolean, boardWidth: number): number {
  if (!phone || boardWidth <= 0) return TRAINER_SIZE;
  return Math.floor(Math.min(boardWidth, PHONE_TRAINER_MAX));
}

/** The grid lines of a square box, as SVG. */
export function GridLines({ style, size }: { style: GridStyle; size: number }) {
  const h = size / 2;
  const t = size / 3;
  const lines: Array<[number, number, number, number]> =
    style === "jiugong"
      ? [
          [t, 0, t, size],
          [2 * t, 0, 2 * t, size],
          [0, t, size, t],
          [0, 2 * t, size, 2 * t],
        ]
      : [
          [h, 0, h, size],
          [0, h, size, h],
          ...(style === "mi"
            ? ([
                [0, 0, size, size],
                [size, 0, 0, size],
              ] as Array<[number, number, number, number]>)
            : []),
        ];
  return (
    <svg className="grid-lines" viewBox={`0 0 ${size} ${size}`} width={size} height={size} aria-hidden="true">
      <rect x={0.5} y={0.5} width={size - 1} height={size - 1} className="grid-lines__frame" />
      {lines.map(([x1, y1, x2, y2], i) => (
        <line key={i} x1={x1} y1={y1} x2={x2} y2={y2} className="grid-lines__line" />
      ))}
    </svg>
  );
}

type Writer = import("hanzi-writer").default;
type CharacterJson = import("hanzi-writer").CharacterJson;

const loadStrokes = (char: string, onLoad: (data: CharacterJson) => void, onError: (err?: unknown) => void) => {
  fetch(strokesUrl(char))
    .then((res) => (res.ok ? res.json() : Promise.reject(new Error(String(res.status)))))
    .then((data: CharacterJson) => onLoad(data), onError);
};

const clock = (seconds: number) =>
  `${String(Math.floor(seconds / 60)).padStart(2, "0")}:${String(seconds % 60).padStart(2, "0")}`;

export function Trainer({ char, signedIn }: { char: string; signedIn: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const paper = useRef<HTMLDivElement>(null);
  const phone = usePhone();
  const [size, setSize] = useState<number | null>(null);
  const writer = useRef<Writer | null>(null);
  const started = useRef(Date.now());
  const [mode, setMode] = useState<Mode>("animate");
  const [grid, setGrid] = useState<GridStyle>("mi");
  const [status, setStatus] = useState<"loading" | "ready" | "missing">("loading");
  const [message, setMessage] = useState<string | null>(null);
  const [mistakes, setMistakes] = useState(0);
  const [done, setDone] = useState(false);
  const [quiet, setQuiet] = useState(false);
  const [elapsed, setElapsed] = useState(0);
  const [round, setRound] = useState(0);

  const record = useCallback(
    async (c: string) => {
      const seconds = Math.min(1800, Math.max(1, Math.round((Date.now() - started.current) / 1000)));
      if (!signedIn) {
        setMessage(`写完了「${c}」。登录后，描完的字会自动记进练字日记。`);
        return;
      }
      try {
        const res: DiarySaveResult = await browserApi("/api/practice/trace", {
          method: "POST",
          body: { char: c, seconds },
          schema: diarySaveResultSchema,
        });
        setMessage(res.message);
      } catch {
        setMessage(`写完了「${c}」，但没能记进日记，请稍后再试`);
      }
    },
    [signedIn],
  );

  // The square follows the trainer's width on a phone (turning the phone, a narrower window).
  useLayoutEffect(() => {
    const el = stage.current;
    if (!el) return;
    const measure = () => {
      const style = getComputedStyle(el);
      const inner = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      setSize(trainerSize(phone, inner));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [phone]);

  // While tracing, a finger on the paper writes: the page must not scroll under it. hanzi-writer
  // listens to touch events; this keeps a move that starts on the paper from scrolling the page
  // where touch-action is not honoured.
  useEffect(() => {
    const el = paper.current;
    if (!el || mode === "animate") return;
    const hold = (e: TouchEvent) => {
      if (e.cancelable) e.preventDefault();
    };
    el.addEventListener("touchmove", hold, { passive: false });
    return () => el.removeEventListener("touchmove", hold);
  }, [mode]);

  // One writer per character and size; modes reuse it.
  useEffect(() => {
    if (size === null) return;
    let cancelled = false;
    setStatus("loading");
    setDone(false);
    setMessage(null);
    setMistakes(0);
    started.current = Date.now();
    void import("hanzi-writer").then(({ default: HanziWriter }) => {
      if (cancelled || !box.current) return;
      box.current.replaceChildren();
      writer.current = HanziWriter.create(box.current, char, {
        width: size,
        height: size,
        padding: Math.round((TRAINER_PADDING * size) / TRAINER_SIZE),
        showOutline: true,
        showCharacter: false,
        strokeColor: "#222222",
        outlineColor: "#d9cfbd",
        drawingColor: "#222222",
        highlightColor: "#b22c1a",
        drawingWidth: Math.round((22 * size) / TRAINER_SIZE),
        strokeAnimationSpeed: 1,
        delayBetweenStrokes: 300,
        charDataLoader: loadStrokes,
        onLoadCharDataSuccess: () => !cancelled && setStatus("ready"),
        onLoadCharDataError: () => !cancelled && setStatus("missing"),
      });
    });
    return () => {
      cancelled = true;
      writer.current?.cancelQuiz();
      writer.current = null;
    };
  }, [char, size]);

  // Apply the mode (again on 重来).
  useEffect(() => {
    const w = writer.current;
    if (!w || status !== "ready") return;
    w.cancelQuiz();
    setDone(false);
    setMistakes(0);
    started.current = Date.now();
    if (mode === "animate") {
      void w.showOutline();
      void w.hideCharacter().then(() => w.animateCharacter());
      return;
    }
    void w.hideCharacter();
    if (mode === "trace") void w.showOutline();
    else void w.hideOutline();
    void w.quiz({
      showHintAfterMisses: mode === "quiz" ? 2 : 1,
      leniency: mode === "trace" ? 1.3 : 1,
      onMistake: (s) => setMistakes(s.totalMistakes),
      onComplete: ({ character, totalMistakes }) => {
        setMistakes(totalMistakes);
        setDone(true);
        void record(character);
      },
    });
  }, [mode, status, round, record]);

  // The quiet mode's timer.
  useEffect(() => {
    if (!quiet) return;
    const since = Date.now();
    setElapsed(0);
    const timer = setInterval(() => setElapsed(Math.floor((Date.now() - since) / 1000)), 1000);
    const leave = () => {
      if (!document.fullscreenElement) setQuiet(false);
    };
    document.addEventListener("fullscreenchange", leave);
    return () => {
      clearInterval(timer);
      document.removeEventListener("fullscreenchange", leave);
    };
  }, [quiet]);

  const toggleQuiet = () => {
    if (quiet) {
      setQuiet(false);
      if (document.fullscreenElement) void document.exitFullscreen();
      return;
    }
    setQuiet(true);
    void stage.current?.requestFullscreen?.().catch(() => undefined);
  };

  const side = size ?? TRAINER_SIZE;
  return (
    <div ref={stage} className={`trainer${quiet ? " trainer--quiet" : ""}`} data-testid="trainer">
      <div className="trainer__controls">
        <div role="group" aria-label="练习方式" className="trainer__group">
          {(Object.keys(modeNames) as Mode[]).map((m) => (
            <button
              key={m}
              type="button"
              className={`button button--small${mode === m ? " button--primary" : ""}`}
              aria-pressed={mode === m}
              onClick={() => {
                setMode(m);
                setRound((r) => r + 1);
              }}
            >
              {modeNames[m]}
            </button>
          ))}
        </div>
        <div role="group" aria-label="格子" className="trainer__group">
          {(Object.keys(gridNames) as GridStyle[]).map((g) => (
            <button
              key={g}
              type="button"
              className={`button button--small${grid === g ? " button--primary" : ""}`}
              aria-pressed={grid === g}
              onClick={() => setGrid(g)}
            >
              {gridNames[g]}
            </button>
          ))}
        </div>
      </div>
      <div className="trainer__board">
        <div
          ref={paper}
          className={`trainer__paper${mode === "animate" ? "" : " trainer__paper--writing"}`}
          style={{ width: side, height: side }}
          data-testid="trainer-paper"
        >
          <GridLines style={grid} size={side} />
          <div
            ref={box}
            className="trainer__writer"
            data-testid="trainer-writer"
            data-char={char}
            data-status={status}
            data-done={done ? "1" : "0"}
            aria-label={`在格子里书写「${char}」`}
            role="img"
          />
          {status === "loading" ? <p className="trainer__overlay">正在取笔顺…</p> : null}
          {status === "missing" ? <p className="trainer__overlay">「{char}」暂时没有笔顺数据，换一个字试试</p> : null}
        </div>
        <div className="trainer__side">
          <p className="trainer__char" aria-hidden="true">
            {char}
          </p>
          <p className="trainer__hint">
            {mode === "animate"
              ? "先看笔顺：起笔、行笔、收笔。看清后选“描红”或“默写测验”。"
              : mode === "trace"
                ? "照着淡色的范字，一笔一笔描。写错的笔画会退回。"
                : "不看范字，按笔顺默写；同一笔错两次会提示。"}
          </p>
          {mode !== "animate" ? (
            <p className="trainer__mistakes" aria-live="polite">
              {done ? `写完了，错了 ${mistakes} 笔` : `已错 ${mistakes} 笔`}
            </p>
          ) : null}
          <div className="trainer__group">
            <button type="button" className="button button--small" onClick={() => setRound((r) => r + 1)}>
              重来
            </button>
            <button type="button" className="button button--small" onClick={toggleQuiet}>
              {quiet ? "退出静心模式" : "静心模式"}
            </button>
          </div>
          {quiet ? (
            <p className="trainer__timer">
              <span className="visually-hidden">静心计时 </span>
              {clock(elapsed)}
            </p>
          ) : null}
          {message ? (
            <p className="trainer__message" role="status" data-testid="trainer-message">
              {message}
            </p>
          ) : null}
        </div>
      </div>
    </div>
  );
}
