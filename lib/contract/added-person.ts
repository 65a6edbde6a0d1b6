import { ROLE_LABELS } from "./roles";

type Person = { email: string; role: string; disabled: boolean };

/**
 * What the Users page's add form says of the person it added, once later changes made its first answer untrue:
 * a role changed or access taken away since. Null while the first answer still holds.
 */
export function sinceAdded(added: { email: string; role: string } | undefined, people: Person[]): string | null {
  if (!added) return null;
  const now = people.find((p) => p.email === added.email);
  if (!now || (now.role === added.role && !now.disabled)) return null;
  const role = ROLE_LABELS[now.role as keyof typeof ROLE_LABELS]?.toLowerCase() ?? now.role;
  const access = now.disabled ? " and disabled: their invitation works once they are enabled again" : "";
  return `${added.email} was added as ${added.role}; now ${role}${access}.`;
}
