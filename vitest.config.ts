import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      "@": root,
      // `server-only` throws outside React Server Components; under test these modules run in plain Node.
      "server-only": path.join(root, "test/empty-module.ts"),
    },
  },
  test: {
    include: ["{lib,app,components,scripts,test}/**/*.test.{ts,tsx}"],
    environment: "node",
    // One migrated PGlite copied into each file's throwaway databases instead of migrating each from nothing.
    globalSetup: ["test/pglite-template.ts"],
    setupFiles: ["test/use-pglite-template.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // No role needs a second factor unless a test says so: many suites stand in for a real provider as admins.
    env: { DATA_DIR: "memory://", TWO_FACTOR_REQUIRED_ROLES: "" },
  },
});
