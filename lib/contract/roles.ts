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
  "invoices:approve",
  "webhooks:simulate",
  "webhooks:manage",
  "users:manage",
  "policy:manage",
  "audit:read",
  "audit:verify",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const VIEWER: Permission[] = ["invoices:read", "invoices:export"];

const GRANTS: Record<Role, readonly Permission[]> = {
  viewer: VIEWER,
  // Which status each role may ask for, and from which, is the transition policy's (lib/contract/transition-policy.ts).
  finance: [...VIEWER, "invoices:archive", "invoices:change_status", "invoices:approve", "audit:read"],
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
  finance: "Viewer, plus records archived invoices, marks invoices completed, approves changes and reads the activity log.",
  support: "Viewer, plus cancels invoices and marks them expired.",
  admin: "Everything, including webhook simulation, the deliveries log and resending, managing users and the approval policy.",
};

export const PERMISSION_LABELS: Record<Permission, string> = {
  "invoices:read": "read invoices",
  "invoices:export": "export invoices",
  "invoices:archive": "record archived invoices",
  "invoices:change_status": "change an invoice's status",
  "invoices:approve": "approve status changes",
  "webhooks:simulate": "simulate webhooks",
  "webhooks:manage": "read and resend webhook deliveries",
  "users:manage": "manage users",
  "policy:manage": "change the approval policy",
  "audit:read": "read the activity log",
  "audit:verify": "verify the activity log",
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
