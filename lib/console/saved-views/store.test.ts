import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditTrail } from "@/lib/console/audit";
import { addUser } from "@/lib/console/auth/users";
import { savedViews } from "@/lib/console/schema";
import { Problem } from "@/lib/contract/problem";
import type { Role } from "@/lib/contract/roles";
import { SAVED_VIEWS_PER_PERSON, savedViewHref } from "@/lib/contract/saved-view";
import { savedViewQuerySchema } from "@/lib/contract/saved-view-schema";
import { type Db, getDatabase } from "@/lib/platform/db";
import { listSavedViews, removeView, renameView, saveView } from "./store";

type Person = { id: string; email: string; role: Role };
let db: Db;
const people = {} as Record<"ana" | "ben" | "admin" | "many", Person>;

beforeAll(async () => {
  db = await getDatabase();
  const make = async (key: keyof typeof people, role: Role) => {
    const user = await addUser(db, { email: `${key}-views@test.invalid`, name: key, role, password: "a long enough password" }, "system");
    people[key] = { id: user.id, email: user.email, role };
  };
  await make("ana", "finance");
  await make("ben", "viewer");
  await make("admin", "admin");
  await make("many", "support");
});

async function refusal(promise: Promise<unknown>): Promise<Problem> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Problem) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("saved views", () => {
  it("a shared view is seen by another person, a private one is not", async () => {
    const team = await saveView(db, people.ana, { name: "Unpaid", query: "?status=pending,paid_partial&page=4", scope: "team" });
    const own = await saveView(db, people.ana, { name: "My BTC", query: "currency=BTC", scope: "mine" });
    expect(team.query).toBe("status=pending,paid_partial");
    expect(savedViewHref(team.query)).toBe("/invoices?status=pending,paid_partial");

    const anaSees = await listSavedViews(db, people.ana);
    expect(anaSees.map((v) => [v.name, v.mine, v.shared, v.removable])).toEqual([
      ["My BTC", true, false, true],
      ["Unpaid", true, true, true],
    ]);
    const benSees = await listSavedViews(db, people.ben);
    expect(benSees.map((v) => v.id)).toContain(team.id);
    expect(benSees.map((v) => v.id)).not.toContain(own.id);
    expect(benSees.find((v) => v.id === team.id)).toMatchObject({ mine: false, removable: false, ownerName: "ana" });

    // Another person's private view is unknown to them, even by id.
    expect(await removeView(db, people.ben, own.id)).toEqual({ removed: false });
    expect((await listSavedViews(db, people.ana)).map((v) => v.id)).toContain(own.id);
  });

  it("a viewer cannot remove a team view they do not own; an admin can; both are audited", async () => {
    const view = await saveView(db, people.ana, { name: "Paid this month", query: "status=completed&created=30d", scope: "team" });
    const problem = await refusal(removeView(db, people.ben, view.id));
    expect(problem.status).toBe(403);
    expect(problem.detail).toContain("Only admins");
    expect((await listSavedViews(db, people.ben)).map((v) => v.id)).toContain(view.id);

    expect((await listSavedViews(db, people.admin)).find((v) => v.id === view.id)?.removable).toBe(true);
    expect(await removeView(db, people.admin, view.id)).toEqual({ removed: true, name: "Paid this month" });
    expect(await removeView(db, people.admin, view.id)).toEqual({ removed: false });
    expect((await listSavedViews(db, people.ben)).map((v) => v.id)).not.toContain(view.id);

    const trail = await auditTrail(db, `saved_view:${view.id}`);
    expect(trail.map((e) => [e.action, e.actorEmail])).toEqual([
      ["saved_view.created", people.ana.email],
      ["saved_view.removed", people.admin.email],
    ]);
    expect(trail[1].detail).toMatchObject({
      name: "Paid this month",
      query: "status=completed&created=30d",
      shared: true,
      owner_id: people.ana.id,
    });
  });

  it("anyone removes their own views, private or shared", async () => {
    const view = await saveView(db, people.ben, { name: "Mine to share", query: "", scope: "team" });
    expect(await removeView(db, people.ben, view.id)).toMatchObject({ removed: true });
  });

  it("refuses names that are empty, too long or already the owner's; trims them", async () => {
    for (const name of ["", "   ", "x".repeat(81)]) {
      const problem = await refusal(saveView(db, people.ben, { name, query: "", scope: "mine" }));
      expect(problem.status).toBe(422);
      expect(problem.errors?.[0]?.pointer).toBe("/name");
    }
    const view = await saveView(db, people.ben, { name: `  ${"y".repeat(80)}  `, query: "", scope: "mine" });
    expect(view.name).toBe("y".repeat(80));
    await saveView(db, people.ben, { name: "Overdue", query: "status=pending", scope: "mine" });
    const taken = await refusal(saveView(db, people.ben, { name: " overdue ", query: "status=expired", scope: "team" }));
    expect(taken.errors?.[0]).toMatchObject({ pointer: "/name", detail: "You already have a view with this name. Choose another." });
    expect(taken.detail).toContain("You already have a view named “overdue”");
    // Another person may use the same name.
    await expect(saveView(db, people.ana, { name: "Overdue", query: "status=pending", scope: "mine" })).resolves.toMatchObject({
      name: "Overdue",
    });
  });

  it(`refuses the ${SAVED_VIEWS_PER_PERSON + 1}st view of one person`, async () => {
    await db
      .insert(savedViews)
      .values(Array.from({ length: SAVED_VIEWS_PER_PERSON - 1 }, (_, i) => ({ name: `View ${i}`, query: "", ownerId: people.many.id })));
    await saveView(db, people.many, { name: "The fiftieth", query: "status=completed", scope: "mine" });
    const problem = await refusal(saveView(db, people.many, { name: "One too many", query: "status=completed", scope: "team" }));
    expect(problem.status).toBe(422);
    expect(problem.detail).toBe(
      `You have ${SAVED_VIEWS_PER_PERSON} saved views, the most one person may keep (${SAVED_VIEWS_PER_PERSON}). Remove one first.`,
    );
    expect(await db.select().from(savedViews).where(eq(savedViews.ownerId, people.many.id))).toHaveLength(SAVED_VIEWS_PER_PERSON);
  });

  it("the owner renames a view, audited with both names; nobody else can, and a taken name is refused", async () => {
    const view = await saveView(db, people.ana, { name: "Open ones", query: "status=pending", scope: "team" });
    await saveView(db, people.ana, { name: "Big BTC", query: "currency=BTC", scope: "mine" });

    expect(await renameView(db, people.ana, { id: view.id, name: "  Waiting\u0007 to be paid " })).toEqual({
      renamed: true,
      from: "Open ones",
      name: "Waiting  to be paid",
    });
    expect((await listSavedViews(db, people.ben)).find((v) => v.id === view.id)).toMatchObject({
      name: "Waiting  to be paid",
      query: "status=pending",
    });

    const taken = await refusal(renameView(db, people.ana, { id: view.id, name: "big btc" }));
    expect(taken.errors?.[0]).toMatchObject({ pointer: "/name", code: "taken" });
    for (const name of ["", " ", "z".repeat(81)]) {
      expect((await refusal(renameView(db, people.ana, { id: view.id, name }))).errors?.[0]?.pointer).toBe("/name");
    }
    // A team view is its owner's to rename, even for an admin, who may only remove it.
    const forbidden = await refusal(renameView(db, people.admin, { id: view.id, name: "Mine now" }));
    expect(forbidden.status).toBe(403);
    expect(forbidden.detail).toContain("Only the person who saved “Waiting  to be paid” can rename it");
    // Another person's private view is unknown to them.
    const own = await saveView(db, people.ana, { name: "Private", query: "", scope: "mine" });
    expect(await renameView(db, people.ben, { id: own.id, name: "Seen" })).toEqual({ renamed: false });
    // Only the case changes: allowed, it is the same view.
    expect(await renameView(db, people.ana, { id: own.id, name: "PRIVATE" })).toMatchObject({ renamed: true, name: "PRIVATE" });

    const trail = await auditTrail(db, `saved_view:${view.id}`);
    expect(trail.map((e) => [e.action, e.actorEmail, e.detail])).toEqual([
      ["saved_view.created", people.ana.email, expect.anything()],
      ["saved_view.renamed", people.ana.email, { from: "Open ones", to: "Waiting  to be paid", shared: true }],
    ]);
    expect(await db.select({ name: savedViews.name }).from(savedViews).where(eq(savedViews.id, view.id))).toEqual([
      { name: "Waiting  to be paid" },
    ]);
  });

  it("refuses a scope other than mine or team", async () => {
    const problem = await refusal(saveView(db, people.ben, { name: "Odd", query: "", scope: "everyone" as "team" }));
    expect(problem.errors?.[0]?.pointer).toBe("/scope");
  });
});

describe("a saved view's query", () => {
  const canonical = (q: string) => savedViewQuerySchema.safeParse(q);
  it.each([
    ["?status=pending,paid_partial&page=3", "status=pending,paid_partial"],
    ["page=2", ""],
    ["", ""],
    [
      "q=A-1001&currency=BTC&sort_by=fiat_amount&sort_order=asc&page_size=50",
      "q=A-1001&currency=BTC&page_size=50&sort_by=fiat_amount&sort_order=asc",
    ],
    ["from=2025-01-01&to=2025-01-31", "from=2025-01-01&to=2025-01-31"],
    ["sort_by=created_at&sort_order=desc&page_size=20", ""],
  ])("%j is kept as %j", (input, output) => {
    expect(canonical(input)).toMatchObject({ success: true, data: output });
  });

  it.each([
    ["status=pending,bogus", "status must be one or more of"],
    ["page_size=33", 'for "page_size"'],
    ["sort_by=name", 'for "sort_by"'],
    ["from=2025-13-01", 'for "from"'],
    ["utm_source=mail", 'has "utm_source", which the invoice list does not know'],
    ["status=completed&status=pending", 'names "status" more than once'],
    [`q=${"x".repeat(201)}`, "at most 200 characters"],
  ])("%j is refused", (input, message) => {
    const parsed = canonical(input);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain(message);
  });
});
