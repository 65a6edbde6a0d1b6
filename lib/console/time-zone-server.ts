import "server-only";
import { cache } from "react";
import { currentUser } from "@/lib/auth/session";
import { env } from "@/lib/env";
import { type DisplayTimeZone, displayTimeZone } from "@/lib/time-zone";

/**
 * The zone this request's person counts days and reads times in (lib/time-zone.ts): their own choice, else
 * the business zone CONSOLE_TIME_ZONE. Read once per request; the browser is handed the same decision.
 */
export const requestTimeZone = cache(async (): Promise<DisplayTimeZone> => {
  const user = await currentUser();
  return displayTimeZone(env().timeZone, user?.timeZone);
});
