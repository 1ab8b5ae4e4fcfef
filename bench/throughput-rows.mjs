// The rows of the throughput workload, for the bench's own servers (bench/bare-react.mjs,
// bench/stack-floor.mjs).

/** The same generator as client/features/fixture/Throughput.page.tsx (xorshift32, fixed seed). */
export function throughputRows(count = 1000) {
  let state = 0x9e3779b9;
  const word = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state.toString(16).padStart(8, "0");
  };
  const uuid = () => {
    const a = word();
    const b = word();
    const c = word();
    const d = word();
    return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${((parseInt(c[0] ?? "0", 16) & 3) | 8).toString(16)}${c.slice(1, 4)}-${c.slice(4)}${d}`;
  };
  const rows = [];
  for (let i = 0; i < count; i++) rows.push({ id: uuid(), name: uuid() });
  return rows;
}
