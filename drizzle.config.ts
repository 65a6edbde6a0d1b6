import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./lib/console/schema.ts",
  out: "./drizzle",
  schemaFilter: ["sandbox", "console"],
});
