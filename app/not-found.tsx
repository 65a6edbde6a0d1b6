import { MapPinOff } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";

export const metadata: Metadata = { title: "Page not found" };

/** An address the console does not have: say so plainly and offer the way back, not the framework's bare 404. */
export default function NotFound() {
  return (
    <main className="grid min-h-screen place-items-center px-page py-12">
      <div className="flex w-full max-w-md flex-col items-center gap-6">
        <Link href="/invoices" className="flex items-center gap-2 rounded-md text-lg font-semibold tracking-tight">
          <span aria-hidden className="grid size-8 place-items-center rounded-md bg-primary text-sm text-primary-foreground">
            IC
          </span>
          Invoice Console
        </Link>
        <Card className="w-full">
          <EmptyState
            headingLevel={1}
            icon={<MapPinOff />}
            title="This page does not exist"
            description={
              <>
                <p>The address may be mistyped, or the page has moved.</p>
                <p className="mt-1">Error 404</p>
              </>
            }
            action={
              <Button variant="primary" asChild>
                <Link href="/invoices">Go to all invoices</Link>
              </Button>
            }
          />
        </Card>
      </div>
    </main>
  );
}
