import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/**
 * One `vite build --app` makes both halves: the browser bundle (with manifest.json, served
 * from /assets/) and the server bundle (dist/server/main.js, dependencies left external).
 */
export default defineConfig({
  plugins: [react()],
  base: "/",
  define: {
    __BUILD_DATE__: JSON.stringify(new Date().toISOString().slice(0, 10)),
  },
  builder: {},
  environments: {
    client: {
      build: {
        outDir: "dist/client",
        manifest: true,
        emptyOutDir: true,
        rolldownOptions: { input: "client/entry-client.tsx" },
      },
    },
    ssr: {
      build: {
        outDir: "dist/server",
        ssr: true,
        emptyOutDir: true,
        rolldownOptions: { input: { main: "server/main.ts" } },
      },
    },
  },
});
