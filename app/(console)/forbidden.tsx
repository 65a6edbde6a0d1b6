import { ShieldOff } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { ProblemState } from "@/components/ui/problem-state";
import { currentUser } from "@/lib/console/auth/session";
import { ROLE_LABELS } from "@/lib/contract/roles";

/** What a person sees on a page their role does not open (lib/console/bff/page.ts answers 403 with it). */
export default async function Forbidden() {
  const user = await currentUser();
  return (
    <ProblemState
      headingLevel={1}
      icon={<ShieldOff />}
      title="You don't have access to this page"
      detail={
        <>
          {user ? `You are signed in as ${ROLE_LABELS[user.role].toLowerCase()}, which does not open this page. ` : ""}
          If you need it for your work, ask an admin to change your role.
        </>
      }
      action={
        <Button asChild>
          <Link href="/invoices">Back to all invoices</Link>
        </Button>
      }
    />
  );
}
