import { describe, expect, it } from "vitest";
import { Problem } from "@/lib/contract/problem";
import { createExportSlots, releasedWhenDone } from "./export-slots";

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as Problem;
  }
  throw new Error("not refused");
};

describe("export slots", () => {
  it("refuses a person's export past perPerson with a 429 and Retry-After, and takes it again once one ends", () => {
    const slots = createExportSlots({ perPerson: 2, total: 10 });
    const first = slots.take("ana");
    slots.take("ana");
    const refused = refusal(() => slots.take("ana"));
    expect(refused).toBeInstanceOf(Problem);
    expect(refused).toMatchObject({ status: 429, code: "too_many_exports", headers: { "retry-after": expect.stringMatching(/^\d+$/) } });
    expect(refused.detail).toContain("You already have 2 exports running");
    expect(slots.take("ben")).toBeTypeOf("function");
    first();
    first();
    expect(slots.running).toBe(2);
    expect(slots.take("ana")).toBeTypeOf("function");
  });

  it("refuses anybody's export past the total", () => {
    const slots = createExportSlots({ perPerson: 5, total: 2 });
    slots.take("ana");
    slots.take("ben");
    expect(refusal(() => slots.take("cy")).detail).toContain("2 exports are running on the console");
  });

  it("gives the slot back when the stream ends, fails or is cancelled", async () => {
    let released = 0;
    const release = () => (released += 1);
    const ended = releasedWhenDone(new Blob(["a,b\r\n"]).stream(), release);
    expect(await new Response(ended).text()).toBe("a,b\r\n");
    expect(released).toBe(1);

    const failing = releasedWhenDone(new ReadableStream({ pull: (c) => c.error(new Error("provider gone")) }), release);
    await expect(new Response(failing).text()).rejects.toThrow("provider gone");
    expect(released).toBe(2);

    const endless = releasedWhenDone(new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array(8)) }), release);
    const reader = endless.getReader();
    await reader.read();
    await reader.cancel();
    expect(released).toBe(3);
  });
});
