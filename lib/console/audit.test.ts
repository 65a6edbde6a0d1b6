import { describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/platform/db";
import { auditTrail, recordAudit } from "./audit";

describe("recordAudit", () => {
  it("writes what PostgreSQL cannot hold (U+0000, half a surrogate pair) as U+FFFD instead of failing", async () => {
    const db = await getDatabase();
    const target = "invoice:odd\u0000id";
    const cutEmoji = `${"a".repeat(3)}${"😀".slice(0, 1)}`;
    await recordAudit(db, {
      actor: "system",
      action: "invoice.status_change",
      target,
      detail: { reason: `voided \ud800 ${cutEmoji}`, nested: { list: ["\udc00", "fine 😀"] } },
    });
    const [entry] = await auditTrail(db, "invoice:odd\uFFFDid");
    expect(entry.detail).toEqual({ reason: "voided \uFFFD aaa\uFFFD", nested: { list: ["\uFFFD", "fine 😀"] } });
  });
});
