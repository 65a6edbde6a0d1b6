// `npm run user -- <command>`: manage who can sign in, from a shell (the Users page does the same in the UI).
//
//   npm run user -- list
//   npm run user -- add ana@example.com --role admin --password '…' [--name "Ana Lima"]
//   npm run user -- role ana@example.com support
//   npm run user -- disable ana@example.com      (signs them out; enable restores sign-in)
//
// Uses DATA_DIR / DATABASE_URL like the console. On the embedded PGlite database, stop the console first.
import { parseArgs } from "node:util";
import { addUser, listUsers, setUserDisabled, setUserRole } from "@/lib/console/auth/users";
import { Problem } from "@/lib/contract/problem";
import { isRole, ROLES } from "@/lib/contract/roles";
import { closeDatabase, getDatabase } from "@/lib/platform/db";

const usage = `Usage:
  npm run user -- list
  npm run user -- add <email> --role <${ROLES.join("|")}> --password <password> [--name <name>]
  npm run user -- role <email> <${ROLES.join("|")}>
  npm run user -- disable <email>
  npm run user -- enable <email>`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { role: { type: "string" }, password: { type: "string" }, name: { type: "string" } },
  });
  const [command, ...rest] = positionals;
  const db = await getDatabase();

  if (command === "list") {
    const users = await listUsers(db);
    if (users.length === 0) console.log("No users yet. Add one with: npm run user -- add <email> --role admin --password <password>");
    for (const u of users) console.log(`${u.role.padEnd(8)} ${u.email.padEnd(36)} ${u.name}${u.disabled ? " (disabled)" : ""}`);
    return 0;
  }
  if (command === "add" && rest.length === 1) {
    const [email] = rest;
    const user = await addUser(
      db,
      { email, role: (values.role ?? "") as never, password: values.password ?? "", name: values.name ?? email.split("@")[0] },
      "system",
    );
    console.log(`Added ${user.email} as ${user.role}. They can sign in now.`);
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
