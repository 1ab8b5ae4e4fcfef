/**
 * The import structure lint holds (scripts/check-modules.mjs, decision 075): modules import along
 * api/modules/dependencies.json, no module group imports itself, the kernel imports no module, no
 * file cycles. Run on small trees made here, and on the real one.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkModules } from "../../scripts/check-modules.mjs";

const trees: string[] = [];

/** A source tree in a temporary folder: file path → content. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), "check-modules-"));
  trees.push(root);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

afterEach(() => {
  for (const root of trees.splice(0)) rmSync(root, { recursive: true, force: true });
});

const healthy = {
  "api/modules/dependencies.json": JSON.stringify({ orders: ["wallet"], wallet: [] }),
  "api/modules/orders/state.ts": 'import { pay } from "../wallet/hooks";\nexport const move = pay;\n',
  "api/modules/wallet/hooks.ts": 'import { listPage } from "../../list-page";\nexport const pay = listPage;\n',
  "api/list-page.ts": "export const listPage = 1;\n",
  "api/router.ts": 'import { move } from "./modules/orders/state";\nexport const router = move;\n',
};

describe("check-modules", () => {
  it("passes a tree that keeps the rules (the composition root may import modules)", () => {
    expect(checkModules(tree(healthy)).problems).toEqual([]);
  });

  it("fails on a module the list does not allow", () => {
    const { problems } = checkModules(
      tree({ ...healthy, "api/modules/wallet/ledger.ts": 'import type { move } from "../orders/state";\n' }),
    );
    expect(problems).toContainEqual(expect.stringContaining('module "wallet" may not import "orders"'));
  });

  it("fails on a module cycle even when the list allows it, and names it", () => {
    const { problems, figures } = checkModules(
      tree({
        ...healthy,
        "api/modules/dependencies.json": JSON.stringify({ orders: ["wallet"], wallet: ["orders"] }),
        "api/modules/wallet/ledger.ts": 'const state = () => import("../orders/state");\nexport { state };\n',
      }),
    );
    expect(problems).toContainEqual("modules import one another: orders → wallet → orders");
    expect(figures.largestModuleGroup).toBe(2);
  });

  it("fails when a kernel file imports a module", () => {
    const { problems } = checkModules(
      tree({
        ...healthy,
        "api/db/seed.ts": 'import { pay } from "../modules/wallet/hooks";\nexport const seed = pay;\n',
        "api/context.ts": 'import type { move } from "./modules/orders/state";\nexport type Move = typeof move;\n',
      }),
    );
    expect(problems).toEqual([
      "kernel file api/context.ts imports business module file api/modules/orders/state.ts",
      "kernel file api/db/seed.ts imports business module file api/modules/wallet/hooks.ts",
    ]);
  });

  it("fails on a file cycle, type imports included", () => {
    const { problems } = checkModules(
      tree({
        ...healthy,
        "shared/routes.ts":
          'import { admin } from "./route-groups/admin";\nexport type Def = string;\nexport const all = [admin];\n',
        "shared/route-groups/admin.ts": 'import type { Def } from "../routes";\nexport const admin: Def = "admin";\n',
      }),
    );
    expect(problems).toEqual([
      "files import one another: shared/route-groups/admin.ts → shared/routes.ts → shared/route-groups/admin.ts",
    ]);
  });

  it("passes on this repository", () => {
    const { problems, figures } = checkModules(path.resolve(import.meta.dirname, "../.."));
    expect(problems).toEqual([]);
    expect(figures).toEqual({ largestModuleGroup: 1, kernelImports: 0, fileCycles: 0 });
  });
});
