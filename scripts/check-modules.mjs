// Holds the import structure of the source tree (decision 075):
// - an API module imports only the modules listed for it in api/modules/dependencies.json;
// - no two API modules reach one another, even through a chain (no strongly connected group);
// - kernel files (api/*.ts, api/db/**) import no business module (api/modules/**);
// - no file-level import cycle in api/, server/, shared/ or client/.
// Type imports and dynamic import() count like any other import.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const SOURCE_FOLDERS = ["api", "server", "shared", "client"];
const SOURCE_FILE = /\.(ts|tsx|mts)$/;
const RESOLVE_SUFFIXES = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"];
export const DEPENDENCIES_FILE = "api/modules/dependencies.json";
// The composition root wires modules together, so it may import any of them.
const COMPOSITION_FILES = new Set(["api/index.ts", "api/router.ts"]);

function listSourceFiles(root, folder) {
  const found = [];
  const walk = (relative) => {
    const absolute = path.join(root, relative);
    if (!fs.existsSync(absolute)) return;
    for (const entry of fs.readdirSync(absolute, { withFileTypes: true })) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") walk(child);
      } else if (SOURCE_FILE.test(entry.name) && !entry.name.endsWith(".d.ts")) {
        found.push(child);
      }
    }
  };
  walk(folder);
  return found;
}

function resolveImport(root, fromFile, specifier) {
  if (!specifier.startsWith(".")) return null;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  for (const suffix of RESOLVE_SUFFIXES) {
    const candidate = base + suffix;
    const absolute = path.join(root, candidate);
    if (fs.existsSync(absolute) && fs.statSync(absolute).isFile()) return candidate;
  }
  return null;
}

/** Every file in the source folders with the source files it imports (relative paths from root). */
export function readImportGraph(root) {
  const graph = new Map();
  for (const folder of SOURCE_FOLDERS) {
    for (const file of listSourceFiles(root, folder)) {
      const text = fs.readFileSync(path.join(root, file), "utf8");
      const { importedFiles } = ts.preProcessFile(text, true, true);
      const targets = new Set();
      for (const { fileName } of importedFiles) {
        const target = resolveImport(root, file, fileName);
        if (target && SOURCE_FILE.test(target)) targets.add(target);
      }
      graph.set(file, targets);
    }
  }
  return graph;
}

/** Tarjan's algorithm: the strongly connected groups of a graph given as Map<node, Set<node>>. */
export function stronglyConnectedGroups(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let next = 0;
  const visit = (start) => {
    // Iterative depth-first walk, so a deep chain of files cannot overflow the call stack.
    const work = [[start, [...(graph.get(start) ?? [])], 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, edges] = frame;
      if (frame[2] < edges.length) {
        const target = edges[frame[2]++];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push([target, [...(graph.get(target) ?? [])], 0]);
        } else if (onStack.has(target)) {
          low.set(node, Math.min(low.get(node), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const group = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          group.push(member);
        } while (member !== node);
        groups.push(group.sort());
      }
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}

/** One cycle through the members of a strongly connected group, for a readable message. */
function cycleThrough(graph, group) {
  const members = new Set(group);
  const start = group[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let step = node; step !== start; step = previous.get(step)) path.splice(1, 0, step);
        return [...path, start].join(" → ");
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return group.join(", ");
}

function moduleOf(file) {
  const match = /^api\/modules\/([^/]+)\//.exec(file);
  return match ? match[1] : null;
}

function isKernelFile(file) {
  if (file.startsWith("api/db/")) return true;
  return /^api\/[^/]+\.(ts|tsx)$/.test(file) && !COMPOSITION_FILES.has(file);
}

/** The module graph: each module with the modules its files import (itself left out). */
export function moduleGraph(graph) {
  const modules = new Map();
  for (const [file, targets] of graph) {
    const from = moduleOf(file);
    if (!from) continue;
    if (!modules.has(from)) modules.set(from, new Set());
    for (const target of targets) {
      const to = moduleOf(target);
      if (to && to !== from) modules.get(from).add(to);
    }
  }
  return modules;
}

/** Checks the tree under root; returns the problems found (empty when all holds) and the figures. */
export function checkModules(root) {
  const graph = readImportGraph(root);
  const problems = [];
  const files = [...graph].sort(([a], [b]) => a.localeCompare(b));

  const listPath = path.join(root, DEPENDENCIES_FILE);
  const allowed = fs.existsSync(listPath) ? JSON.parse(fs.readFileSync(listPath, "utf8")) : {};
  for (const [file, targets] of files) {
    const from = moduleOf(file);
    if (!from) continue;
    for (const target of targets) {
      const to = moduleOf(target);
      if (to && to !== from && !(allowed[from] ?? []).includes(to)) {
        problems.push(
          `${file} imports ${target}, but module "${from}" may not import "${to}" (add it to ${DEPENDENCIES_FILE} if it should)`,
        );
      }
    }
  }

  const modules = moduleGraph(graph);
  const moduleGroups = stronglyConnectedGroups(modules).filter((group) => group.length > 1);
  for (const group of moduleGroups) {
    problems.push(`modules import one another: ${cycleThrough(modules, group)}`);
  }

  let kernelImports = 0;
  for (const [file, targets] of files) {
    for (const target of targets) {
      if (!moduleOf(target) || moduleOf(file)) continue;
      if (isKernelFile(file)) {
        kernelImports += 1;
        problems.push(`kernel file ${file} imports business module file ${target}`);
      }
    }
  }

  const fileGroups = stronglyConnectedGroups(graph).filter((group) => group.length > 1);
  for (const group of fileGroups) {
    problems.push(`files import one another: ${cycleThrough(graph, group)}`);
  }

  const largestModuleGroup = Math.max(1, ...moduleGroups.map((group) => group.length));
  return { problems, figures: { largestModuleGroup, kernelImports, fileCycles: fileGroups.length } };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const { problems } = checkModules(root);
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) {
    console.error(`check-modules: ${problems.length} problem(s); see docs/decisions/075-*.md`);
    process.exit(1);
  }
}
