import "server-only";

export { closeDatabase, type Db, getDatabase, openDatabase, type PostgresOptions, VACUUM_INVOICE_LISTS } from "./client";
