import "server-only";
import { Problem } from "@/lib/contract/problem";
import { type Permission, type Role, whoMay } from "@/lib/contract/roles";

export const unauthenticated = () =>
  Problem.of("unauthenticated", {
    title: "Sign in to continue",
    detail: "You are not signed in, or your session has ended.",
  });

/** A person whose role needs a second factor, and who has none yet: nothing but setting one up. */
export const secondFactorRequired = () =>
  Problem.of("second_factor_required", {
    detail: "Your role signs in with an authenticator app. Set one up at /two-factor, then try again.",
  });

export const forbidden = (permission: Permission, user: { role: Role }) =>
  Problem.of("forbidden", {
    title: "Your role does not allow this",
    detail: `${whoMay(permission)} You are signed in as ${user.role}. (Needs the ${permission} permission.)`,
  });

/**
 * A change sent from a page drawn for another person than `user`, who is signed in now. The other person is not
 * named: the id comes from the form, and anyone may write any id there.
 */
export const drawnForSomeoneElse = (user: { email: string }) =>
  Problem.of("signed_in_as_someone_else", {
    detail: `This page was opened while someone else was signed in; you are now signed in as ${user.email}. Your change was not sent — reload to continue as ${user.email}.`,
  });
