import { expect, it } from "vitest";
import { describeOnPostgres } from "@/test/use-postgres-database";
import { FREE_FAILURES_PER_ACCOUNT, reserveSignInAttempt, signInSucceeded } from "./sign-in-limiter";

/*
 * The limiter on PostgreSQL, where transactions really run at once (PGlite runs them one after another, so a
 * missing lock could not show there): a burst for one account from one address lets exactly the free attempts
 * through, however the transactions' start times and their turns at the row interleave.
 */

describeOnPostgres("the sign-in limiter on PostgreSQL", (database) => {
  it("lets exactly the free attempts of a burst through, again and again", async () => {
    const db = database.db();
    for (let round = 0; round < 5; round++) {
      const email = `burst-${round}@limits.test`;
      const answers = await Promise.all(Array.from({ length: 12 }, () => reserveSignInAttempt(db, email, `10.40.0.${round}`)));
      expect(answers.filter((answer) => answer === null)).toHaveLength(FREE_FAILURES_PER_ACCOUNT);
      expect(answers.filter((answer) => answer?.scope === "account")).toHaveLength(12 - FREE_FAILURES_PER_ACCOUNT);
    }
  }, 60_000);

  it("never fails when a success clears the row in the middle of a burst", async () => {
    const db = database.db();
    const email = "cleared@limits.test";
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        i % 4 === 3 ? signInSucceeded(db, email, "10.41.0.1").then(() => "cleared" as const) : reserveSignInAttempt(db, email, "10.41.0.1"),
      ),
    );
    expect(answers.filter((answer) => answer === "cleared")).toHaveLength(4);
  }, 60_000);
});
