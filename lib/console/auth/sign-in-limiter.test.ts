import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "@/lib/platform/db";
import { NO_POSTGRES_HINT, postgresAvailable, startTestPostgres, type TestPostgres } from "@/test/postgres";
import { FREE_FAILURES_PER_ACCOUNT, reserveSignInAttempt, signInSucceeded } from "./sign-in-limiter";

/*
 * The limiter on PostgreSQL, where transactions really run at once (PGlite runs them one after another, so a
 * missing lock could not show there): a burst for one account from one address lets exactly the free attempts
 * through, however the transactions' start times and their turns at the row interleave.
 */

const available = postgresAvailable();
if (!available) console.warn(`lib/console/auth/sign-in-limiter.test.ts is skipped. ${NO_POSTGRES_HINT}`);

describe.skipIf(!available)("the sign-in limiter on PostgreSQL", () => {
  let postgres: TestPostgres | null = null;
  let opened: { db: Db; close: () => Promise<void> } | undefined;
  beforeAll(async () => {
    postgres = await startTestPostgres();
    if (!postgres) throw new Error(NO_POSTGRES_HINT);
    opened = await openDatabase(postgres.url);
  }, 120_000);
  afterAll(async () => {
    await opened?.close();
    await postgres?.stop();
  }, 60_000);

  it("lets exactly the free attempts of a burst through, again and again", async () => {
    const db = opened!.db;
    for (let round = 0; round < 5; round++) {
      const email = `burst-${round}@limits.test`;
      const answers = await Promise.all(Array.from({ length: 12 }, () => reserveSignInAttempt(db, email, `10.40.0.${round}`)));
      expect(answers.filter((answer) => answer === null)).toHaveLength(FREE_FAILURES_PER_ACCOUNT);
      expect(answers.filter((answer) => answer?.scope === "account")).toHaveLength(12 - FREE_FAILURES_PER_ACCOUNT);
    }
  }, 60_000);

  it("never fails when a success clears the row in the middle of a burst", async () => {
    const db = opened!.db;
    const email = "cleared@limits.test";
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        i % 4 === 3 ? signInSucceeded(db, email, "10.41.0.1").then(() => "cleared" as const) : reserveSignInAttempt(db, email, "10.41.0.1"),
      ),
    );
    expect(answers.filter((answer) => answer === "cleared")).toHaveLength(4);
  }, 60_000);
});
