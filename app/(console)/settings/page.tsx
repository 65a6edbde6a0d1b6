import type { Metadata } from "next";
import { PolicyDifferences } from "@/components/settings/policy-differences";
import { PolicyForm } from "@/components/settings/policy-form";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { readTransitionPolicy } from "@/lib/console/approvals/policy-store";
import { guardPage } from "@/lib/console/bff/page";
import { getDatabase } from "@/lib/platform/db";

export const metadata: Metadata = { title: "Settings" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The admins' settings: the transition policy. `?defaults=1` draws the form with the defaults, saved only when sent. */
export default async function SettingsPage({ searchParams }: Props) {
  await guardPage("policy:manage");
  const policy = await readTransitionPolicy(await getDatabase());
  const showDefaults = (await searchParams).defaults === "1";

  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
      <Card>
        <CardHeader>
          <CardTitle>Status changes</CardTitle>
          <CardDescription>
            Who may set which status, from which, and which changes need a second person&apos;s approval. Changes apply to every request
            asked from now on; requests already waiting keep what they asked.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-5">
          <PolicyDifferences policy={policy} />
          <PolicyForm policy={policy} showDefaults={showDefaults} />
        </CardContent>
      </Card>
    </div>
  );
}
