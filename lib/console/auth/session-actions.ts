"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { z } from "zod";
import { type ActionState, guardedAction } from "@/lib/console/bff/action";
import { getDatabase } from "@/lib/platform/db";
import { endOtherSessions, endSession } from "./sessions";
import { clientAddress } from "./sign-in";

// A session's row id (better-auth's, 32 characters); never its token, which no page ever holds.
const sessionSchema = z.object({ session: z.string().trim().min(1, { error: "Choose a session to sign out." }).max(200) });

/** The Account page: sign out one of the person's own other sessions; someone else's id ends nothing. */
export const endOwnSessionAction = guardedAction("signed-in", sessionSchema, async ({ session }, user): Promise<ActionState> => {
  const ended = await endSession(await getDatabase(), {
    sessionId: session,
    owner: user!.id,
    actor: user!,
    address: clientAddress(await headers()),
  });
  revalidatePath("/account");
  return { ok: `Signed out of ${ended.browser} on ${ended.system}.`, answeredAt: Date.now() };
});

/** The Account page: every session of the person but this one. */
export const endOtherSessionsAction = guardedAction("signed-in", z.object({}), async (_input, user): Promise<ActionState> => {
  const count = await endOtherSessions(await getDatabase(), user!, clientAddress(await headers()));
  revalidatePath("/account");
  return {
    ok: count === 0 ? "No other session was signed in." : `Signed out of ${count} other session${count === 1 ? "" : "s"}.`,
    answeredAt: Date.now(),
  };
});

/** The Users page: an admin ends anyone's session. */
export const endUserSessionAction = guardedAction("users:manage", sessionSchema, async ({ session }, actor): Promise<ActionState> => {
  const ended = await endSession(await getDatabase(), {
    sessionId: session,
    owner: null,
    actor: actor!,
    address: clientAddress(await headers()),
  });
  revalidatePath("/users");
  return { ok: `Signed ${ended.email} out of ${ended.browser} on ${ended.system}.`, answeredAt: Date.now() };
});
