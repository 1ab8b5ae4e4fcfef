import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/** react-router exports only its development build; bundles use its production build. */
const routerBuild = (file: string) =>
  fileURLToPath(new URL(`./node_modules/react-router/dist/production/${file}`, import.meta.url));

/**
 * One `vite build --app` makes both halves: the browser bundle (with manifest.json, served
 * from /assets/) and the server bundle (dist/server/main.js, dependencies left external).
 */
/** DIST_DIR lets several builds live side by side (parallel test runs); default dist/. */
const outRoot = process.env.DIST_DIR ?? "dist";

export default defineConfig({
  plugins: [react()],
  base: "/",
  resolve: {
    alias: [
      { find: /^react-router$/, replacement: routerBuild("index.mjs") },
      { find: /^react-router\/dom$/, replacement: routerBuild("dom-export.mjs") },
    ],
  },
  // Bundled into the server build so the alias above applies there too.
  ssr: { noExternal: ["react-router", "react-router-dom"] },
  define: {
    __BUILD_DATE__: JSON.stringify(new Date().toISOString().slice(0, 10)),
  },
  builder: {},
  environments: {
    client: {
      build: {
        outDir: `${outRoot}/client`,
        manifest: true,
        emptyOutDir: true,
        rolldownOptions: { input: "client/entry-client.tsx" },
      },
    },
    ssr: {
      build: {
        outDir: `${outRoot}/server`,
        ssr: true,
        emptyOutDir: true,
        rolldownOptions: { input: { main: "server/main.ts", api: "server/api-main.ts", cli: "server/cli.ts" } },
      },
    },
  },
});
