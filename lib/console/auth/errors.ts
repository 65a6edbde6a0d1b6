import "server-only";
import { Problem } from "@/lib/contract/problem";
import { type Permission, type Role, whoMay } from "@/lib/contract/roles";

export const unauthenticated = () =>
  Problem.of("unauthenticated", {
    title: "Sign in to continue",
    detail: "You are not signed in, or your session has ended.",
  });

export const forbidden = (permission: Permission, user: { role: Role }) =>
  Problem.of("forbidden", {
    title: "Your role does not allow this",
    detail: `${whoMay(permission)} You are signed in as ${user.role}. (Needs the ${permission} permission.)`,
  });
