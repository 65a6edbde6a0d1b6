import { pgSchema, timestamp } from "drizzle-orm/pg-core";

// Shared by lib/console/schema.ts and lib/console/schema-auth.ts, which would import each other otherwise.

/**
 * The console's own data (ARCHITECTURE.md §5): people, their sessions (better-auth's tables, named as it expects),
 * the audit log and small settings.
 */
export const consoleSchema = pgSchema("console");

export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();
