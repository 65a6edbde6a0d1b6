export * as schema from "./schema";
export { getDatabase, openDatabase, type Db } from "./client";
