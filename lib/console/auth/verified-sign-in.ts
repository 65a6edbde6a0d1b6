import type { BetterAuthPlugin } from "better-auth";
import { createAuthEndpoint } from "better-auth/api";
import { expireCookie, setSessionCookie } from "better-auth/cookies";
import { z } from "zod";

/**
 * A better-auth endpoint that starts a session for a person the console has already verified by other means (a
 * passkey: lib/console/auth/passkeys.ts), so the session and its cookie are made exactly as a password sign-in
 * makes them. Server-only: it is on no HTTP route and is reached through `auth.api.signInVerifiedPerson` alone.
 * A password sign-in still waiting for its second factor is consumed: the passkey stands for both.
 */
export function verifiedSignIn() {
  return {
    id: "console-verified-sign-in",
    endpoints: {
      signInVerifiedPerson: createAuthEndpoint.serverOnly(
        { method: "POST", body: z.object({ userId: z.string().min(1) }) },
        async (ctx) => {
          const user = await ctx.context.internalAdapter.findUserById(ctx.body.userId);
          if (!user) throw new Error("signInVerifiedPerson: no such person");
          const pendingCookie = ctx.context.createAuthCookie("two_factor");
          const pending = await ctx.getSignedCookie(pendingCookie.name, ctx.context.secret);
          if (pending) {
            await ctx.context.internalAdapter.consumeVerificationValue(pending).catch(() => null);
            expireCookie(ctx, pendingCookie);
          }
          const session = await ctx.context.internalAdapter.createSession(user.id);
          if (!session) throw new Error("signInVerifiedPerson: the session was not made");
          await setSessionCookie(ctx, { session, user });
          return ctx.json({ userId: user.id });
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}
