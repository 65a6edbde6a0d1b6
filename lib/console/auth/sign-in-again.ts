"use server";

import { z } from "zod";
import { guardedAction } from "@/lib/console/bff/action";
import { ROLE_DESCRIPTIONS } from "@/lib/contract/roles";
import { env } from "@/lib/platform/env";
import { DEMO_USERS } from "./users";

/** What the dialog offers besides email and password: the demo accounts, on the embedded sandbox only. */
export const signInChoicesAction = guardedAction("public", z.object({}), async () => ({
  demo: env().embeddedSandbox ? DEMO_USERS.map((u) => ({ role: u.role, email: u.email, description: ROLE_DESCRIPTIONS[u.role] })) : [],
  answeredAt: Date.now(),
}));

/**
 * Whether the request still has a live session: a page that failed to load asks (components/console-error.tsx), so
 * that an ended session reads "signed out" rather than blaming the invoicing API. Says nothing about whom.
 */
export const sessionStateAction = guardedAction("public", z.object({}), async (_input, user) => ({
  signedIn: user !== null,
  answeredAt: Date.now(),
}));
