import "server-only";
import { cache } from "react";
import { currentUser } from "@/lib/console/auth/session";
import { type DisplayTimeZone, displayTimeZone } from "@/lib/contract/time-zone";
import { env } from "@/lib/platform/env";

/**
 * The zone this request's person counts days and reads times in (lib/contract/time-zone.ts): their own choice, else
 * the business zone CONSOLE_TIME_ZONE. Read once per request; the browser is handed the same decision.
 */
export const requestTimeZone = cache(async (): Promise<DisplayTimeZone> => {
  const user = await currentUser();
  return displayTimeZone(env().timeZone, user?.timeZone);
});
