import { beforeAll, describe, expect, it, vi } from "vitest";
import { DRAWN_FOR_FIELD } from "@/lib/contract/drawn-for";

// Server actions read the request through next/headers; here each call names the cookie it is made with.
let requestCookie = "";
vi.mock("next/headers", () => ({
  headers: async () => new Headers(requestCookie ? { cookie: requestCookie } : {}),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, delete: () => undefined, has: () => false }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

/** A change sent from a page drawn for one person while another is signed in (another tab signed in since). */
describe("a change sent for someone other than the person signed in", () => {
  const people = {} as Record<"admin" | "support", { cookie: string; id: string; email: string }>;
  beforeAll(async () => {
    const [{ signedInCookie }, { sessionUser }] = await Promise.all([
      import("@/lib/console/auth/signed-in-cookie"),
      import("@/lib/console/auth/session"),
    ]);
    for (const role of ["admin", "support"] as const) {
      const cookie = await signedInCookie(role);
      const user = await sessionUser(new Headers({ cookie }));
      people[role] = { cookie, id: user!.id, email: user!.email };
    }
  });

  async function setTimeZone(signedIn: "admin" | "support", drawnFor?: string) {
    const { setTimeZoneAction } = await import("@/lib/console/users/actions");
    requestCookie = people[signedIn].cookie;
    const form = new FormData();
    form.set("time_zone", "Europe/Berlin");
    if (drawnFor) form.set(DRAWN_FOR_FIELD, drawnFor);
    return setTimeZoneAction(form);
  }

  it("is refused with a 409 naming both people, and nothing changes", async () => {
    const answer = await setTimeZone("support", people.admin.id);
    expect(answer).toMatchObject({
      problem: {
        status: 409,
        detail: `This page was opened while someone else was signed in; you are now signed in as ${people.support.email}. Your change was not sent — reload to continue as ${people.support.email}.`,
      },
    });
    const { sessionUser } = await import("@/lib/console/auth/session");
    expect((await sessionUser(new Headers({ cookie: people.support.cookie })))?.timeZone).not.toBe("Europe/Berlin");
  });

  it("goes through for the person it was drawn for, and the field is not part of what the form echoes", async () => {
    const answer = await setTimeZone("support", people.support.id);
    expect(answer).not.toHaveProperty("problem");
    const refused = await setTimeZone("support", people.admin.id);
    expect("values" in refused ? refused.values : {}).not.toHaveProperty(DRAWN_FOR_FIELD);
  });
});
