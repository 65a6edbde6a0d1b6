// `npm run user -- <command>`: manage who can sign in, from a shell (the Users page does the same in the UI).
//
//   npm run user -- list
//   npm run user -- add ana@example.com --role admin [--name "Ana Lima"]   (prints their one-time invitation link)
//   npm run user -- reset ana@example.com       (prints a one-time link to choose a new password)
//   npm run user -- role ana@example.com support
//   npm run user -- disable ana@example.com      (signs them out; enable restores sign-in)
//
// Nobody types another person's password here: each person chooses their own from the link, which is shown once
// and also emailed when SMTP_URL is set. The first admin of a fresh console can be added the same way.
//
// Uses DATA_DIR / DATABASE_URL like the console. On the embedded PGlite database, stop the console first.
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { type IssuedLink, issueLink, type LinkKind } from "@/lib/console/auth/account-links";
import { emailLink } from "@/lib/console/auth/link-mail";
import { addUser, listUsers, setUserDisabled, setUserRole } from "@/lib/console/auth/users";
import { users } from "@/lib/console/schema";
import { Problem } from "@/lib/contract/problem";
import { isRole, ROLES } from "@/lib/contract/roles";
import { closeDatabase, getDatabase } from "@/lib/platform/db";

const usage = `Usage:
  npm run user -- list
  npm run user -- add <email> --role <${ROLES.join("|")}> [--name <name>]
  npm run user -- reset <email>
  npm run user -- role <email> <${ROLES.join("|")}>
  npm run user -- disable <email>
  npm run user -- enable <email>`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { role: { type: "string" }, name: { type: "string" } },
  });
  const [command, ...rest] = positionals;
  const db = await getDatabase();

  if (command === "list") {
    const people = await listUsers(db);
    if (people.length === 0) console.log("No users yet. Add one with: npm run user -- add <email> --role admin");
    for (const u of people) console.log(`${u.role.padEnd(8)} ${u.email.padEnd(36)} ${u.name}${u.disabled ? " (disabled)" : ""}`);
    return 0;
  }
  if (command === "add" && rest.length === 1) {
    const [email] = rest;
    const user = await addUser(db, { email, role: (values.role ?? "") as never, name: values.name ?? email.split("@")[0] }, "system");
    console.log(`Added ${user.email} as ${user.role}. They choose their password with this invitation:`);
    await handOver(await issueLink(db, { kind: "invite", userId: user.id, actor: "system", address: "command line" }), user);
    return 0;
  }
  if (command === "reset" && rest.length === 1) {
    const [user] = await db.select().from(users).where(eq(users.email, rest[0].toLowerCase()));
    if (!user) {
      console.error(`No account has the email ${rest[0]}.`);
      return 1;
    }
    console.log(`${user.email} chooses a new password with this link; their sessions end when they do:`);
    await handOver(
      await issueLink(db, { kind: "reset" satisfies LinkKind, userId: user.id, actor: "system", address: "command line" }),
      user,
    );
    return 0;
  }
  if (command === "role" && rest.length === 2) {
    const [email, role] = rest;
    if (!isRole(role)) {
      console.error(`Unknown role "${role}". Choose one of: ${ROLES.join(", ")}.`);
      return 2;
    }
    await setUserRole(db, email, role, "system");
    console.log(`${email} is now ${role}.`);
    return 0;
  }
  if ((command === "disable" || command === "enable") && rest.length === 1) {
    await setUserDisabled(db, rest[0], command === "disable", "system");
    console.log(`${rest[0]} ${command === "disable" ? "can no longer sign in" : "can sign in again"}.`);
    return 0;
  }
  console.error(usage);
  return 2;
}

/** Prints the link (shown this once) and emails it when SMTP_URL is set. */
async function handOver(link: IssuedLink, person: { email: string; name: string }) {
  console.log(`\n  ${link.url}\n\nIt works once, until ${link.expiresAt}.`);
  const { emailedTo, emailError } = await emailLink(link, person);
  if (emailedTo) console.log(`Emailed to ${emailedTo}.`);
  if (emailError) console.log(`Could not email it: ${emailError}`);
}

main(process.argv.slice(2))
  .catch((error: unknown) => {
    if (error instanceof Problem) {
      const fields = (error.errors ?? []).map((e) => `\n  ${e.pointer.slice(1)}: ${e.detail}`).join("");
      console.error(`${error.title}.${error.detail && !fields ? ` ${error.detail}` : ""}${fields}`);
    } else {
      console.error(error instanceof Error ? error.message : error);
    }
    return 1;
  })
  .then(async (code) => {
    await closeDatabase();
    process.exit(code);
  });
