import "server-only";
import { can, type Permission } from "@/lib/contract/roles";
import { forbidden, unauthenticated } from "./errors";
import { currentUser, type SessionUser } from "./session";

/** For server actions, which are not app/api routes: the same session and permission rule as the BFF wrapper. */
export async function requirePermission(permission: Permission): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) throw unauthenticated();
  if (!can(user.role, permission)) throw forbidden(permission, user);
  return user;
}
