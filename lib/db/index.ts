import "server-only";
export * as schema from "./schema";
export { closeDatabase, getDatabase, openDatabase, type Db } from "./client";
