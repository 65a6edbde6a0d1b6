import "server-only";

export { closeDatabase, type Db, getDatabase, openDatabase, VACUUM_INVOICE_LISTS } from "./client";
