import Link from "next/link";
import { ROLE_LABELS } from "@/lib/auth/roles";
import { currentUser } from "@/lib/auth/session";

/** What a person sees on a page their role does not open (lib/bff/page.ts answers 403 with it). */
export default async function Forbidden() {
  const user = await currentUser();
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-3 py-20 text-center">
      <h1 className="text-xl font-semibold">You don&apos;t have access to this page</h1>
      <p className="text-sm text-zinc-600">
        {user ? `You are signed in as ${ROLE_LABELS[user.role].toLowerCase()}, which does not open this page. ` : ""}
        If you need it for your work, ask an admin to change your role.
      </p>
      <Link href="/invoices" className="text-sm font-medium text-indigo-700 hover:underline">
        Back to all invoices
      </Link>
    </div>
  );
}
