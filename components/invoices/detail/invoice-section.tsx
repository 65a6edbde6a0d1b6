import type { ReactNode } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";

const sectionId = (title: string) => `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;

/** A titled card that is a landmark region named by its title ("Blockchain transactions"). */
export function InvoiceSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={sectionId(title)} className="min-w-0">
      <Card className="h-full">
        <CardHeader>
          <CardTitle id={sectionId(title)}>{title}</CardTitle>
        </CardHeader>
        <CardContent className="pt-2">{children}</CardContent>
      </Card>
    </section>
  );
}
