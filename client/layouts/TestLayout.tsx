import { Outlet } from "react-router-dom";

export function TestLayout() {
  return (
    <main className="layout layout--test" id="main">
      <Outlet />
    </main>
  );
}
