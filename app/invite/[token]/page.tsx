import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PasswordLinkPage } from "@/components/auth/password-link-page";
import { readLink } from "@/lib/console/auth/account-links";
import { getDatabase } from "@/lib/platform/db";

export const metadata: Metadata = { title: "Invitation" };

/** Public: the token in the address is the only credential (lib/console/auth/account-links.ts). An unknown one is a 404. */
export default async function Page({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const link = await readLink(await getDatabase(), "invite", token);
  if (link.state === "unknown") notFound();
  return <PasswordLinkPage kind="invite" token={token} link={link} />;
}
