import "server-only";
import { randomUUID } from "node:crypto";
import type { Role } from "@/lib/contract/roles";
import { getDatabase } from "@/lib/platform/db";
import { getAuth } from "./server";
import { addUser } from "./users";

/** Tests and benchmarks: a new user with `role`, signed in; returns the Cookie header a browser would send. */
export async function signedInCookie(role: Role): Promise<string> {
  const email = `${role}-${randomUUID()}@test.invalid`;
  const password = "correct horse battery";
  await addUser(await getDatabase(), { email, name: `Test ${role}`, role, password }, "system");
  const response = await (await getAuth()).api.signInEmail({ body: { email, password }, asResponse: true });
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}
