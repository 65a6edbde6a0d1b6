import "server-only";
import { and, asc, eq, or, sql } from "drizzle-orm";
import { recordAudit } from "@/lib/console/audit";
import type { SessionUser } from "@/lib/console/auth/session";
import { savedViews, users } from "@/lib/console/schema";
import { Problem } from "@/lib/contract/problem";
import { can } from "@/lib/contract/roles";
import { SAVED_VIEWS_PER_PERSON, type SavedView } from "@/lib/contract/saved-view";
import { type RenameViewInput, renameViewSchema, type SaveViewInput, saveViewSchema } from "@/lib/contract/saved-view-schema";
import type { Db } from "@/lib/platform/db";

type Person = Pick<SessionUser, "id" | "email" | "role">;

/**
 * Removing a team view someone else made is managing the team's shared things; no permission names that, so it
 * goes with the one that already manages the team: users:manage, the admins' (the Users page's guard).
 */
export function mayRemoveTeamViews(person: Pick<SessionUser, "role">): boolean {
  return can(person.role, "users:manage");
}

/** The person's own views, then the team's (shared by others), each by name. */
export async function listSavedViews(db: Db, person: Person): Promise<SavedView[]> {
  const rows = await db
    .select({
      id: savedViews.id,
      name: savedViews.name,
      query: savedViews.query,
      shared: savedViews.shared,
      ownerId: savedViews.ownerId,
      ownerName: users.name,
    })
    .from(savedViews)
    .innerJoin(users, eq(users.id, savedViews.ownerId))
    .where(or(eq(savedViews.ownerId, person.id), eq(savedViews.shared, true)))
    .orderBy(sql`${savedViews.ownerId} <> ${person.id}`, sql`lower(${savedViews.name})`, asc(savedViews.createdAt));
  const admin = mayRemoveTeamViews(person);
  return rows.map(({ ownerId, ...row }) => {
    const mine = ownerId === person.id;
    return { ...row, mine, removable: mine || (row.shared && admin) };
  });
}

/**
 * Saves a view for its owner, alone or for the team. Names are unique per owner (case aside) and one person
 * keeps at most SAVED_VIEWS_PER_PERSON: both are checked under a lock on the owner's row, so two saves at once
 * (two tabs, two instances) take turns instead of both passing the check.
 */
export async function saveView(db: Db, person: Person, input: SaveViewInput): Promise<SavedView> {
  const parsed = saveViewSchema.safeParse(input);
  if (!parsed.success) throw Problem.fromZod(parsed.error, "form");
  const { name, query, scope } = parsed.data;
  const shared = scope === "team";
  return db.transaction(async (tx) => {
    const owner = await lockOwner(tx as unknown as Db, person);
    const existing = await tx
      .select({ id: savedViews.id, name: savedViews.name })
      .from(savedViews)
      .where(eq(savedViews.ownerId, person.id));
    refuseTakenName(existing, name, "or remove that view first");
    if (existing.length >= SAVED_VIEWS_PER_PERSON) {
      throw Problem.of("validation_failed", {
        detail: `You have ${existing.length} saved views, the most one person may keep (${SAVED_VIEWS_PER_PERSON}). Remove one first.`,
      });
    }
    const [row] = await tx.insert(savedViews).values({ name, query, shared, ownerId: person.id }).returning();
    await recordAudit(tx as unknown as Db, {
      actor: person,
      action: "saved_view.created",
      target: `saved_view:${row.id}`,
      detail: { name, query, shared },
    });
    return { id: row.id, name, query, shared, ownerName: owner.name, mine: true, removable: true };
  });
}

/** The owner's row, locked: their saves and renames take turns, so a name or the count is checked once at a time. */
async function lockOwner(db: Db, person: Person): Promise<{ name: string }> {
  const [owner] = await db.select({ name: users.name }).from(users).where(eq(users.id, person.id)).for("update");
  if (!owner) throw Problem.of("not_found", { title: "No such user", detail: "Your account no longer exists." });
  return owner;
}

/** Names are the owner's own, case aside. */
function refuseTakenName(views: { id: string; name: string }[], name: string, otherwise: string, except?: string): void {
  if (views.some((v) => v.id !== except && v.name.toLowerCase() === name.toLowerCase())) {
    throw Problem.of("validation_failed", {
      detail: `You already have a view named “${name}”. Choose another name, ${otherwise}.`,
      errors: [{ pointer: "/name", code: "taken", detail: "You already have a view with this name. Choose another." }],
    });
  }
}

/**
 * Renames one of the person's own views (a team view's name is its owner's to change). Another person's private
 * view is answered as unknown, as by removeView; a view already gone answers renamed: false.
 */
export async function renameView(
  db: Db,
  person: Person,
  input: RenameViewInput,
): Promise<{ renamed: boolean; from?: string; name?: string }> {
  const parsed = renameViewSchema.safeParse(input);
  if (!parsed.success) throw Problem.fromZod(parsed.error, "form");
  const { id, name } = parsed.data;
  return db.transaction(async (tx) => {
    await lockOwner(tx as unknown as Db, person);
    const [view] = await tx.select().from(savedViews).where(eq(savedViews.id, id)).for("update");
    if (!view || (view.ownerId !== person.id && !view.shared)) return { renamed: false };
    if (view.ownerId !== person.id) {
      throw Problem.of("forbidden", {
        detail: `Only the person who saved “${view.name}” can rename it. You can save it again under a name of your own.`,
      });
    }
    if (view.name === name) return { renamed: true, from: view.name, name };
    const existing = await tx
      .select({ id: savedViews.id, name: savedViews.name })
      .from(savedViews)
      .where(eq(savedViews.ownerId, person.id));
    refuseTakenName(existing, name, "or rename that view first", view.id);
    await tx.update(savedViews).set({ name }).where(eq(savedViews.id, id));
    await recordAudit(tx as unknown as Db, {
      actor: person,
      action: "saved_view.renamed",
      target: `saved_view:${view.id}`,
      detail: { from: view.name, to: name, shared: view.shared },
    });
    return { renamed: true, from: view.name, name };
  });
}

/**
 * Removes a view: one's own, or, for an admin, a team view. Another person's private view is answered as
 * unknown (its existence is theirs). A view already gone answers false, so a second click is not an error.
 */
export async function removeView(db: Db, person: Person, id: string): Promise<{ removed: boolean; name?: string }> {
  return db.transaction(async (tx) => {
    const [view] = await tx.select().from(savedViews).where(eq(savedViews.id, id)).for("update");
    if (!view || (view.ownerId !== person.id && !view.shared)) return { removed: false };
    if (view.ownerId !== person.id && !mayRemoveTeamViews(person)) {
      throw Problem.of("forbidden", {
        detail: `Only admins can remove a team view someone else saved. “${view.name}” stays; you can remove your own views.`,
      });
    }
    await tx.delete(savedViews).where(and(eq(savedViews.id, id)));
    await recordAudit(tx as unknown as Db, {
      actor: person,
      action: "saved_view.removed",
      target: `saved_view:${view.id}`,
      detail: { name: view.name, query: view.query, shared: view.shared, owner_id: view.ownerId },
    });
    return { removed: true, name: view.name };
  });
}
