/**
 * The diary's pictures, drawn as SVG by China date: a year heat map of practice minutes (a
 * contribution calendar: columns are weeks, Monday on top) and the minutes of the last weeks.
 */
import { addDays } from "../../../shared/china-time";

const CELL = 12;
const GAP = 3;
const LEFT = 26;
const TOP = 18;
const WEEKS = 53;

/** Monday of the week holding a date. */
export function mondayOf(date: string): string {
  const weekday = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(date, -weekday);
}

/** Ink levels: nothing, under 15 minutes, under 30, under 60, an hour or more. */
export function level(minutes: number | undefined): number {
  if (minutes === undefined) return 0;
  if (minutes < 15) return 1;
  if (minutes < 30) return 2;
  if (minutes < 60) return 3;
  return 4;
}

const monthNames = ["1月", "2月", "3月", "4月", "5月", "6月", "7月", "8月", "9月", "10月", "11月", "12月"];

export function HeatMap({ today, days }: { today: string; days: Array<{ date: string; minutes: number }> }) {
  const byDate = new Map(days.map((d) => [d.date, d.minutes]));
  const first = addDays(mondayOf(today), -(WEEKS - 1) * 7);
  const cells = [];
  const months = [];
  let lastMonth = "";
  for (let w = 0; w < WEEKS; w++) {
    const monday = addDays(first, w * 7);
    const month = monday.slice(5, 7);
    if (month !== lastMonth) {
      if (w < WEEKS - 2)
        months.push(
          <text key={`m${w}`} x={LEFT + w * (CELL + GAP)} y={11} className="heat__label">
            {monthNames[Number(month) - 1]}
          </text>,
        );
      lastMonth = month;
    }
    for (let d = 0; d < 7; d++) {
      const date = addDays(monday, d);
      if (date > today) continue;
      const minutes = byDate.get(date);
      cells.push(
        <rect
          key={date}
          x={LEFT + w * (CELL + GAP)}
          y={TOP + d * (CELL + GAP)}
          width={CELL}
          height={CELL}
          rx={2}
          className={`heat__cell heat__cell--${level(minutes)}${date === today ? " heat__cell--today" : ""}`}
          data-date={date}
          data-minutes={minutes ?? 0}
        >
          <title>{minutes === undefined ? `${date} 未练字` : `${date} 练字 ${minutes} 分钟`}</title>
        </rect>,
      );
    }
  }
  const width = LEFT + WEEKS * (CELL + GAP);
  const height = TOP + 7 * (CELL + GAP) + 22;
  const practised = days.length;
  return (
    <figure className="heat">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        role="img"
        aria-label={`近一年练字 ${practised} 天的热力图`}
        data-testid="heat-map"
      >
        {months}
        {["一", "三", "五"].map((label, i) => (
          <text key={label} x={0} y={TOP + (i * 2 + 1) * (CELL + GAP) - 3} className="heat__label">
            周{label}
          </text>
        ))}
        {cells}
        <g transform={`translate(${width - 5 * (CELL + GAP) - 60}, ${TOP + 7 * (CELL + GAP) + 6})`}>
          <text x={0} y={10} className="heat__label">
            少
          </text>
          {[0, 1, 2, 3, 4].map((l) => (
            <rect
              key={l}
              x={18 + l * (CELL + GAP)}
              y={0}
              width={CELL}
              height={CELL}
              rx={2}
              className={`heat__cell heat__cell--${l}`}
            />
          ))}
          <text x={18 + 5 * (CELL + GAP) + 2} y={10} className="heat__label">
            多
          </text>
        </g>
      </svg>
    </figure>
  );
}

export function WeekBars({ weeks }: { weeks: Array<{ start: string; minutes: number }> }) {
  const max = Math.max(60, ...weeks.map((w) => w.minutes));
  const W = 40;
  const H = 120;
  const width = weeks.length * W;
  return (
    <figure className="bars">
      <svg viewBox={`0 0 ${width} ${H + 36}`} width="100%" role="img" aria-label="近 12 周每周练字分钟数">
        {weeks.map((w, i) => {
          const h = Math.round((w.minutes / max) * H);
          return (
            <g key={w.start} transform={`translate(${i * W}, 0)`}>
              <rect x={8} y={12 + H - h} width={W - 16} height={Math.max(h, 1)} className="bars__bar" rx={2}>
                <title>{`${w.start} 起一周：${w.minutes} 分钟`}</title>
              </rect>
              {w.minutes > 0 ? (
                <text x={W / 2} y={8 + H - h} textAnchor="middle" className="bars__value">
                  {w.minutes}
                </text>
              ) : null}
              <text x={W / 2} y={H + 30} textAnchor="middle" className="bars__label">
                {w.start.slice(5).replace("-", "/")}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
