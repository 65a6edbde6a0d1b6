import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { can, ROLES, type Role } from "@/lib/contract/roles";
import { DEFAULT_TRANSITION_POLICY } from "@/lib/contract/transition-policy";
import { type ActionAccess, isGuardedAction } from "./action";

/**
 * Every server action, found from the file tree ("use server" modules), must be made by the one guard with
 * the access this table names; a new action fails here until someone decides who may run it. Each guarded
 * action is then run without a session and as each role: refused before it does anything, or let through.
 */
const ACTIONS: Record<string, ActionAccess> = {
  "lib/console/auth/actions.ts#signIn": "public",
  "lib/console/auth/actions.ts#signInCode": "public",
  "lib/console/auth/actions.ts#signOut": "public",
  // Setting up a second factor is open even to someone whose role needs one first; removing it is not.
  "lib/console/auth/two-factor-actions.ts#startTwoFactorAction": "second-factor-setup",
  "lib/console/auth/two-factor-actions.ts#confirmTwoFactorAction": "second-factor-setup",
  "lib/console/auth/two-factor-actions.ts#removeTwoFactorAction": "signed-in",
  // A passkey is a second factor too: adding one is part of setting one up.
  "lib/console/auth/passkey-actions.ts#passkeyRegistrationAction": "second-factor-setup",
  "lib/console/auth/passkey-actions.ts#addPasskeyAction": "second-factor-setup",
  "lib/console/auth/passkey-actions.ts#removePasskeyAction": "signed-in",
  "lib/console/auth/passkey-actions.ts#passkeySignInOptionsAction": "public",
  "lib/console/auth/passkey-actions.ts#passkeySignInAction": "public",
  // A person's own sessions (another person's id ends nothing: auth/sessions.test.ts); anyone's for users:manage.
  "lib/console/auth/password-actions.ts#changePasswordAction": "signed-in",
  "lib/console/auth/session-actions.ts#endOwnSessionAction": "signed-in",
  "lib/console/auth/session-actions.ts#endOtherSessionsAction": "signed-in",
  "lib/console/auth/session-actions.ts#endUserSessionAction": "users:manage",
  "lib/console/auth/sign-in-again.ts#signInChoicesAction": "public",
  "lib/console/auth/sign-in-again.ts#sessionStateAction": "public",
  "lib/console/invoices/actions.ts#startBulkCancelAction": "invoices:change_status",
  "lib/console/invoices/actions.ts#retryBulkCancelAction": "invoices:change_status",
  "lib/console/invoices/actions.ts#previewBulkCancelAction": "invoices:change_status",
  "lib/console/invoices/actions.ts#changeStatusAction": "invoices:change_status",
  "lib/console/invoices/actions.ts#recordArchivedAction": "invoices:archive",
  "lib/console/invoices/actions.ts#changeStatusFormAction": "invoices:change_status",
  "lib/console/invoices/actions.ts#recordArchivedFormAction": "invoices:archive",
  "lib/console/saved-views/actions.ts#saveViewAction": "invoices:read",
  // Removing someone else's team view also takes users:manage, checked per view (saved-views/store.test.ts).
  "lib/console/saved-views/actions.ts#removeViewAction": "invoices:read",
  // A view is renamed by its owner only, checked per view (saved-views/store.test.ts).
  "lib/console/saved-views/actions.ts#renameViewAction": "invoices:read",
  "lib/console/users/actions.ts#addUserAction": "users:manage",
  "lib/console/users/actions.ts#issueResetLinkAction": "users:manage",
  // Nobody is signed in to choose a password: the link's token is the credential, checked first (auth/account-links.test.ts).
  "lib/console/auth/link-actions.ts#acceptInvitationAction": "public",
  "lib/console/auth/link-actions.ts#resetPasswordAction": "public",
  "lib/console/users/actions.ts#setRoleAction": "users:manage",
  "lib/console/users/actions.ts#setAccessAction": "users:manage",
  "lib/console/users/actions.ts#setTimeZoneAction": "signed-in",
  "lib/console/users/actions.ts#setTwoFactorRequirementAction": "users:manage",
  "lib/console/webhooks/actions.ts#simulateWebhookAction": "webhooks:simulate",
  "lib/console/webhooks/actions.ts#redeliverWebhookAction": "webhooks:manage",
  "lib/console/webhooks/actions.ts#startBulkRedeliverAction": "webhooks:manage",
  // Approving and rejecting also take invoices:approve, checked per decision (approvals/approvals.test.ts).
  "lib/console/approvals/actions.ts#decideApprovalAction": "invoices:change_status",
  "lib/console/approvals/actions.ts#savePolicyAction": "policy:manage",
};
/** The default policy as the settings form posts it (lib/console/approvals/policy-form.ts). */
function policyFields(): Record<string, string> {
  const fields: Record<string, string> = { bulk_approval_over: String(DEFAULT_TRANSITION_POLICY.bulk_approval_over) };
  for (const [to, rule] of Object.entries(DEFAULT_TRANSITION_POLICY.targets)) {
    for (const role of rule.roles) fields[`${to}.roles.${role}`] = "on";
    for (const from of rule.from) fields[`${to}.from.${from}`] = "on";
    fields[`${to}.approval`] = rule.approval;
  }
  for (const from of DEFAULT_TRANSITION_POLICY.guarded_from) fields[`guarded_from.${from}`] = "on";
  return fields;
}

/**
 * Actions that go on to the invoicing API or the transition policy once let through: no provider answers here,
 * and the policy may refuse the role's change, so they may fail, but after the guard.
 */
const CALLS_PROVIDER = new Set([
  "lib/console/invoices/actions.ts#startBulkCancelAction",
  "lib/console/approvals/actions.ts#decideApprovalAction",
  "lib/console/invoices/actions.ts#previewBulkCancelAction",
  "lib/console/invoices/actions.ts#changeStatusAction",
  "lib/console/invoices/actions.ts#recordArchivedAction",
  "lib/console/invoices/actions.ts#changeStatusFormAction",
  "lib/console/invoices/actions.ts#recordArchivedFormAction",
  "lib/console/webhooks/actions.ts#simulateWebhookAction",
  "lib/console/webhooks/actions.ts#redeliverWebhookAction",
  "lib/console/webhooks/actions.ts#startBulkRedeliverAction",
]);

/** Actions whose form holds a password or a code the test cannot know: let through, then a field error. */
const CHECKS_SECRET = new Set([
  "lib/console/auth/two-factor-actions.ts#startTwoFactorAction",
  "lib/console/auth/two-factor-actions.ts#confirmTwoFactorAction",
  "lib/console/auth/two-factor-actions.ts#removeTwoFactorAction",
  "lib/console/auth/passkey-actions.ts#passkeyRegistrationAction",
  // The authenticator's signed answer to a challenge the test never asked for.
  "lib/console/auth/passkey-actions.ts#addPasskeyAction",
  "lib/console/auth/password-actions.ts#changePasswordAction",
]);

/** Actions naming a session (or a passkey) the test does not have: let through, then "no such session". */
const NAMES_UNKNOWN_SESSION = new Set([
  "lib/console/auth/passkey-actions.ts#removePasskeyAction",
  "lib/console/auth/session-actions.ts#endOwnSessionAction",
  "lib/console/auth/session-actions.ts#endUserSessionAction",
]);

/** Forms that also post without script: an ended session sends them to sign in, their draft in `next`. */
const KEEPS_DRAFT = new Set([
  "lib/console/invoices/actions.ts#changeStatusFormAction",
  "lib/console/invoices/actions.ts#recordArchivedFormAction",
]);

const root = path.resolve(import.meta.dirname, "../../..");
const sourceFiles = (dir: string) =>
  (readdirSync(path.join(root, dir), { recursive: true }) as string[])
    .filter((f) => /\.(ts|tsx)$/.test(f) && !f.endsWith(".test.ts"))
    .map((f) => path.posix.join(dir, f.split(path.sep).join("/")));
const isServerActionModule = (file: string) => /^\s*["']use server["']/.test(readFileSync(path.join(root, file), "utf8"));

// Server actions read the request through next/headers; here each call names the cookie it is made with.
let requestCookie = "";
vi.mock("next/headers", () => ({
  headers: async () => new Headers(requestCookie ? { cookie: requestCookie } : {}),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, delete: () => undefined, has: () => false }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const cookies = {} as Record<Role, string>;
const bulkJobs = {} as Record<Role, string>;
/** The person the Users page's actions are tried on. */
const TARGET = "action-target@test.invalid";
beforeAll(async () => {
  const { signedInCookie } = await import("@/lib/console/auth/signed-in-cookie");
  for (const role of ROLES) cookies[role] = await signedInCookie(role);
  // A bulk cancel of each person's own, for "try again" (which only its author or an admin may run).
  const [{ sessionUser }, { createBulkCancel }] = await Promise.all([
    import("@/lib/console/auth/session"),
    import("@/lib/console/invoices/bulk-cancel"),
  ]);
  const { getDatabase: db } = await import("@/lib/platform/db");
  for (const role of ROLES) {
    const user = await sessionUser(new Headers({ cookie: cookies[role] }));
    bulkJobs[role] = await createBulkCancel(await db(), user!, ["invoice-of-nobody"], "access test");
  }
  const [{ addUser }, { getDatabase }] = await Promise.all([import("@/lib/console/auth/users"), import("@/lib/platform/db")]);
  await addUser(await getDatabase(), { email: TARGET, name: "Target", role: "viewer", password: "a long enough password" }, "system");
});

describe("server actions", () => {
  it("live in lib/, never in app/ (components must not import from app/)", () => {
    expect(sourceFiles("app").filter(isServerActionModule)).toEqual([]);
    expect(sourceFiles("components").filter(isServerActionModule)).toEqual([]);
  });

  it("are each made by guardedAction with the access the table names, and the table lists them all", async () => {
    const found: Record<string, ActionAccess> = {};
    for (const file of sourceFiles("lib").filter(isServerActionModule)) {
      const module = (await import(/* @vite-ignore */ path.join(root, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) {
        expect(isGuardedAction(value), `${file}#${name} is not made by guardedAction`).toBe(true);
        if (isGuardedAction(value)) found[`${file}#${name}`] = value.access;
      }
    }
    expect(found).toEqual(ACTIONS);
  });

  const guarded = Object.entries(ACTIONS)
    .filter(([, access]) => access !== "public")
    .map(([id, access]) => ({ id, access }));

  it.each(guarded)("$id refuses without a session and changes nothing", async ({ id }) => {
    const action = await load(id);
    requestCookie = "";
    if (KEEPS_DRAFT.has(id)) {
      // A form that posts without script: off to sign in and back to the form with what was typed.
      const error = await action(formFor(id, "viewer")).then(
        () => null,
        (e: unknown) => e as { digest?: string },
      );
      expect(error?.digest).toMatch(/^NEXT_REDIRECT;.*;\/login\?next=%2F.*&ended=draft;/);
      return;
    }
    const answer = await action(formFor(id, "viewer"));
    expect(answer).toMatchObject({ error: "You are not signed in, or your session has ended." });
  });

  for (const role of ROLES) {
    it.each(guarded)(`$id as ${role}`, async ({ id, access }) => {
      const action = await load(id);
      requestCookie = cookies[role];
      const answer = (await action(formFor(id, role))) as { ok?: string; error?: string; problem?: { code: string } };
      if (access === "signed-in" || access === "second-factor-setup" || can(role, access as never)) {
        if (CALLS_PROVIDER.has(id) || CHECKS_SECRET.has(id) || NAMES_UNKNOWN_SESSION.has(id))
          expect(answer.problem?.code ?? "let through").not.toMatch(/^(unauthenticated|forbidden)$/);
        else expect(answer.error).toBeUndefined();
      } else expect(answer.error).toContain(`Needs the ${access} permission`);
    });
  }
});

async function load(id: string) {
  const [file, name] = id.split("#");
  const module = (await import(/* @vite-ignore */ path.join(root, file))) as Record<string, (form: FormData) => Promise<unknown>>;
  return module[name];
}

let added = 0;
function formFor(id: string, role: Role): FormData {
  const form = new FormData();
  const email = `action-target-${added++}-${Date.now()}@test.invalid`;
  const fields: Record<string, Record<string, string>> = {
    "lib/console/invoices/actions.ts#startBulkCancelAction": { ids: "invoice-of-nobody", reason: "access test" },
    "lib/console/invoices/actions.ts#retryBulkCancelAction": { job: bulkJobs[role] },
    "lib/console/invoices/actions.ts#previewBulkCancelAction": { view: "status=new" },
    "lib/console/users/actions.ts#addUserAction": { email, name: "Ada", role: "viewer" },
    "lib/console/users/actions.ts#issueResetLinkAction": { email: TARGET },
    "lib/console/users/actions.ts#setRoleAction": { email: TARGET, role: "viewer" },
    "lib/console/users/actions.ts#setAccessAction": { email: TARGET, disabled: "false" },
    "lib/console/users/actions.ts#setTimeZoneAction": { time_zone: "Europe/Berlin" },
    // The environment's default on the embedded sandbox: no role.
    "lib/console/users/actions.ts#setTwoFactorRequirementAction": {},
    "lib/console/auth/two-factor-actions.ts#startTwoFactorAction": { password: "not the password" },
    "lib/console/auth/password-actions.ts#changePasswordAction": {
      current_password: "not the password",
      password: "velvet orbit lamp crane",
      password_again: "velvet orbit lamp crane",
    },
    "lib/console/auth/session-actions.ts#endOwnSessionAction": { session: "session-of-nobody" },
    "lib/console/auth/session-actions.ts#endUserSessionAction": { session: "session-of-nobody" },
    "lib/console/auth/two-factor-actions.ts#confirmTwoFactorAction": { code: "000000" },
    "lib/console/auth/two-factor-actions.ts#removeTwoFactorAction": { code: "000000" },
    "lib/console/invoices/actions.ts#changeStatusAction": {
      invoice_id: "invoice_action_access",
      status: "cancelled",
      reason: "Access test",
    },
    "lib/console/invoices/actions.ts#changeStatusFormAction": {
      invoice_id: "invoice_action_access",
      status: "cancelled",
      reason: "Access test",
    },
    "lib/console/invoices/actions.ts#recordArchivedFormAction": {
      order_id: "ACCESS-2",
      currency: "BTC",
      amount_in: "fiat",
      amount: "49.9",
    },
    "lib/console/invoices/actions.ts#recordArchivedAction": { request: '{"order_id": "ACCESS-1", "currency": "BTC", "fiat_amount": 49.9}' },
    "lib/console/webhooks/actions.ts#simulateWebhookAction": { invoice_id: "invoice_action_access", status: "completed" },
    "lib/console/webhooks/actions.ts#redeliverWebhookAction": { webhook_id: "msg_action_access" },
    "lib/console/saved-views/actions.ts#saveViewAction": {
      name: `View ${added}`,
      query: "status=pending,paid_partial&page=2",
      scope: "team",
    },
    "lib/console/saved-views/actions.ts#removeViewAction": { id: crypto.randomUUID() },
    "lib/console/saved-views/actions.ts#renameViewAction": { id: crypto.randomUUID(), name: "Renamed" },
    // Withdrawing an unknown request: let through the guard, then "not found".
    "lib/console/approvals/actions.ts#decideApprovalAction": { id: crypto.randomUUID(), decision: "withdraw", reason: "access test" },
    "lib/console/approvals/actions.ts#savePolicyAction": policyFields(),
  };
  for (const [key, value] of Object.entries(fields[id] ?? {})) form.set(key, value);
  return form;
}
