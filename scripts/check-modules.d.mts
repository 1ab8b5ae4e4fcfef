/** Types of scripts/check-modules.mjs, for the test that runs it on a small tree. */
export declare const DEPENDENCIES_FILE: string;
export declare function readImportGraph(root: string): Map<string, Set<string>>;
export declare function stronglyConnectedGroups(graph: Map<string, Set<string>>): string[][];
export declare function moduleGraph(graph: Map<string, Set<string>>): Map<string, Set<string>>;
export declare function checkModules(root: string): {
  problems: string[];
  figures: { largestModuleGroup: number; kernelImports: number; fileCycles: number };
};
