import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { auditTrail, recordAudit } from "@/lib/console/audit";
import { type Db, openDatabase } from "@/lib/platform/db";
import { invoiceAuditTarget } from "./change-status";

/** drizzle/0003: trails kept under the UUID the console used to cut out of ids move to the id they were made under. */
let db: Db;
let close: () => Promise<void>;

beforeAll(async () => ({ db, close } = await openDatabase("memory://")));
afterAll(() => close());

it("moves invoice:<uuid> to invoice:invoice_<uuid> and leaves every other target as it is", async () => {
  const uuid = "0190a1d2-3333-7000-8000-000000000001";
  for (const target of [`invoice:${uuid}`, "invoice:inv_8Hq2x", "invoice:48213", "user:someone"]) {
    await recordAudit(db, { actor: "system", action: "test", target });
  }
  const migration = readFileSync(path.join(process.cwd(), "drizzle/0003_audit_opaque_invoice_ids.sql"), "utf8");
  await db.execute(sql.raw(migration));

  expect(await auditTrail(db, `invoice:${uuid}`)).toHaveLength(0);
  expect(await auditTrail(db, invoiceAuditTarget(`invoice_${uuid}`))).toHaveLength(1);
  for (const target of ["invoice:inv_8Hq2x", "invoice:48213", "user:someone"]) expect(await auditTrail(db, target)).toHaveLength(1);
});
