/**
 * Who may do what, in one place. Isomorphic: the server enforces it (lib/console/bff) and the UI reads it to hide or
 * disable what a role may not do.
 */
export const ROLES = ["viewer", "finance", "support", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  "invoices:read",
  "invoices:export",
  "invoices:archive",
  "invoices:change_status",
  "webhooks:simulate",
  "users:manage",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const VIEWER: Permission[] = ["invoices:read", "invoices:export"];

const GRANTS: Record<Role, readonly Permission[]> = {
  viewer: VIEWER,
  finance: [...VIEWER, "invoices:archive"],
  support: [...VIEWER, "invoices:change_status"],
  admin: PERMISSIONS,
};

export const ROLE_LABELS: Record<Role, string> = {
  viewer: "Viewer",
  finance: "Finance",
  support: "Support",
  admin: "Admin",
};

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  viewer: "Reads invoices, rates and currencies; exports.",
  finance: "Viewer, plus records archived invoices.",
  support: "Viewer, plus changes an invoice's status.",
  admin: "Everything, including webhook simulation and managing users.",
};

export const PERMISSION_LABELS: Record<Permission, string> = {
  "invoices:read": "read invoices",
  "invoices:export": "export invoices",
  "invoices:archive": "record archived invoices",
  "invoices:change_status": "change an invoice's status",
  "webhooks:simulate": "simulate webhooks",
  "users:manage": "manage users",
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export function can(role: string | null | undefined, permission: Permission): boolean {
  return isRole(role) && GRANTS[role].includes(permission);
}

/** "Only support and admin can change an invoice's status." — the reason shown beside a disabled control. */
export function whoMay(permission: Permission): string {
  const roles = ROLES.filter((r) => GRANTS[r].includes(permission)).map((r) => ROLE_LABELS[r].toLowerCase());
  const list = roles.length > 1 ? `${roles.slice(0, -1).join(", ")} and ${roles.at(-1)}` : roles[0];
  return `Only ${list} can ${PERMISSION_LABELS[permission]}.`;
}
