import { randomUUID } from "node:crypto";
import { and, eq, inArray, isNull, or } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "@/lib/console/schema";
import { Problem } from "@/lib/contract/problem";
import { type Db, openDatabase } from "@/lib/platform/db";
import { describeOnPostgres } from "@/test/use-postgres-database";
import { setUserDisabled, setUserRole } from "./users";

/*
 * The last admin under hostile timing: two admins remove each other at the same moment, each
 * through another console instance. Whatever the interleaving, exactly one change goes through, the other is
 * refused with `last_admin`, and somebody can still manage users. On PostgreSQL the two instances are two
 * connection pools on one server (TEST_POSTGRES_URL, else a throwaway cluster, as test/http/instances.test.ts);
 * on PGlite, the embedded database's one connection serves both.
 */

const ROUNDS = 25;
type Admin = { id: string; email: string };
type Change = "demote" | "disable";
const CHANGES: [Change, Change][] = [
  ["demote", "demote"],
  ["disable", "disable"],
  ["demote", "disable"],
  ["disable", "demote"],
];

async function twoAdmins(db: Db): Promise<[Admin, Admin]> {
  const make = (): Admin => {
    const id = randomUUID();
    return { id, email: `admin-${id}@last-admin.test` };
  };
  const pair: [Admin, Admin] = [make(), make()];
  await db.insert(users).values(pair.map((a) => ({ ...a, name: "Admin", role: "admin" })));
  return pair;
}

/** Who of these people can still manage users: an admin who is not disabled. */
async function activeAdmins(db: Db, people: Admin[]): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(
      and(
        inArray(
          users.id,
          people.map((p) => p.id),
        ),
        eq(users.role, "admin"),
        or(isNull(users.banned), eq(users.banned, false)),
      ),
    );
  return rows.map((r) => r.email);
}

/** `actor` removes `target` as an admin, through the instance `db`. */
function remove(db: Db, change: Change, actor: Admin, target: Admin): Promise<void> {
  return change === "demote" ? setUserRole(db, target.email, "viewer", actor) : setUserDisabled(db, target.email, true, actor);
}

async function raceRounds(instanceA: Db, instanceB: Db) {
  // Only these two are admins in the database: a fresh one, so the count is theirs alone.
  const [a, b] = await twoAdmins(instanceA);
  const outcomes: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await instanceA
      .update(users)
      .set({ role: "admin", banned: false, banReason: null })
      .where(inArray(users.id, [a.id, b.id]));
    const [byA, byB] = CHANGES[round % CHANGES.length];
    const settled = await Promise.allSettled([remove(instanceA, byA, a, b), remove(instanceB, byB, b, a)]);

    const left = await activeAdmins(instanceA, [a, b]);
    expect(left, `round ${round} (${byA} vs ${byB}) left no admin`).toHaveLength(1);
    const refused = settled.filter((s): s is PromiseRejectedResult => s.status === "rejected");
    expect(refused, `round ${round}: exactly one of the two changes is refused`).toHaveLength(1);
    const [{ reason }] = refused;
    expect(reason).toBeInstanceOf(Problem);
    expect(reason).toMatchObject({ code: "last_admin", status: 409, title: expect.stringMatching(/^The last admin cannot/) });
    // The refused change's target is the admin left; its actor is the one the other change removed.
    const kept = settled[0].status === "rejected" ? b : a;
    expect(left).toEqual([kept.email]);
    outcomes.push(kept === a ? "A kept" : "B kept");
  }
  return outcomes;
}

describe("the last admin, on PGlite", () => {
  let opened: { db: Db; close: () => Promise<void> };
  beforeAll(async () => {
    opened = await openDatabase("memory://");
  });
  afterAll(async () => {
    await opened?.close();
  });

  it("two admins removing each other at once: one change goes through, the other is refused", async () => {
    expect(await raceRounds(opened.db, opened.db)).toHaveLength(ROUNDS);
  });
});

describeOnPostgres(
  "the last admin, on PostgreSQL with two instances",
  (database) => {
    it("two admins removing each other at once on two instances: one change goes through, the other is refused", async () => {
      expect(await raceRounds(database.db(0), database.db(1))).toHaveLength(ROUNDS);
    }, 60_000);
  },
  { instances: 2 },
);
