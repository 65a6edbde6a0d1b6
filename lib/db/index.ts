import "server-only";
export * as schema from "./schema";
export { closeDatabase, getDatabase, openDatabase, VACUUM_INVOICE_LISTS, type Db } from "./client";
