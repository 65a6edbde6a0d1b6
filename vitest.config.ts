import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(__dirname),
      // `server-only` throws outside React Server Components; under test these modules run in plain Node.
      "server-only": path.resolve(__dirname, "test/empty-module.ts"),
    },
  },
  test: {
    include: ["{lib,app,components,scripts}/**/*.test.{ts,tsx}"],
    environment: "node",
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { DATA_DIR: "memory://" },
  },
});
