import "server-only";

export * as schema from "@/lib/console/schema";
export { closeDatabase, type Db, getDatabase, openDatabase, VACUUM_INVOICE_LISTS } from "./client";
