import "server-only";
import { forbidden } from "next/navigation";
import { requireUser, type SessionUser } from "@/lib/console/auth/session";
import { can, type Permission } from "@/lib/contract/roles";

/**
 * The one guard for every console page, called first thing, before the page reads anything with the
 * console's key or from the database: a verified session (else off to sign in and back), whose role grants
 * `permission` (else the "you don't have access" page, 403). A layout's check never stands in for it: Next.js
 * renders a page beside its layout, so a page that relied on the layout could stream its data before the
 * layout's redirect.
 */
export async function guardPage(permission: Permission): Promise<SessionUser> {
  const user = await requireUser();
  if (!can(user.role, permission)) forbidden();
  return user;
}
