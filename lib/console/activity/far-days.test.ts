import { describe, expect, it } from "vitest";
import { activityQuerySchema } from "@/lib/contract/activity";
import { getDatabase } from "@/lib/platform/db";
import { listActivity } from "./query";

describe("the activity view at the calendar's edges", () => {
  it("answers days of year 1 and 9999 without failing", async () => {
    const db = await getDatabase();
    for (const search of [
      { after: "9999-12-31", before: "9999-12-31" },
      { after: "0001-01-01", before: "0001-01-02" },
      { before: "9999-12-31" },
    ]) {
      const list = await listActivity(db, activityQuerySchema.parse(search), "Pacific/Kiritimati");
      expect(list.pagination.current_page, JSON.stringify(search)).toBe(1);
    }
  });
});
