import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  // Each service's own tables; the migrations are generated from both together.
  schema: ["./lib/sandbox/schema.ts", "./lib/console/schema.ts"],
  out: "./drizzle",
  schemaFilter: ["sandbox", "console"],
});
