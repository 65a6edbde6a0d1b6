import { CircleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { Card, CardContent, CardDescription, CardTitle } from "@/components/ui/card";
import { MessageBlock } from "@/components/ui/message-block";
import { Skeleton } from "@/components/ui/skeleton";
import { cn } from "@/lib/browser/cn";
import { Problem, problemSentence } from "@/lib/contract/problem";
import { log } from "@/lib/platform/observability/log";
import { RetryButton } from "./retry-button";

type CardProps = { id: string; title: string; description?: ReactNode; className?: string; children: ReactNode; action?: ReactNode };

/** One overview card: a labelled region, so a screen reader can jump between them. */
export function OverviewCard({ id, title, description, className, children, action }: CardProps) {
  return (
    <Card className={cn("flex min-w-0 flex-col", className)} role="region" aria-labelledby={`${id}-title`} data-testid={id}>
      <div className="flex flex-row flex-wrap items-start justify-between gap-x-4 gap-y-1 px-5 pt-5">
        <div className="flex min-w-0 flex-col gap-1">
          <CardTitle id={`${id}-title`}>{title}</CardTitle>
          {description && <CardDescription>{description}</CardDescription>}
        </div>
        {action}
      </div>
      <CardContent className="flex-1">{children}</CardContent>
    </Card>
  );
}

/** The card while its figures load: the same frame, so nothing jumps when they arrive. */
export function OverviewCardLoading({ id, title, className, rows = 5 }: { id: string; title: string; className?: string; rows?: number }) {
  return (
    <OverviewCard id={id} title={title} className={className}>
      <div role="status" aria-busy="true" aria-label={`Loading ${title.toLowerCase()}`} className="flex flex-col gap-3">
        {Array.from({ length: rows }, (_, i) => (
          <Skeleton key={i} className="h-6" />
        ))}
      </div>
    </OverviewCard>
  );
}

/**
 * A card whose figures could not be read: what happened and a retry, in place of this card only. The
 * provider's problems say what to do; anything else is logged and described without internals.
 */
export function OverviewCardError({ id, title, className, error }: { id: string; title: string; className?: string; error: unknown }) {
  const problem = error instanceof Problem ? error : null;
  if (!problem) log.error({ err: error }, `overview: ${title} failed`);
  return (
    <OverviewCard id={id} title={title} className={className}>
      <MessageBlock
        role="alert"
        className="py-6"
        icon={<CircleAlert />}
        title={`${title} could not be loaded`}
        description={
          problem
            ? problemSentence(problem)
            : "Something went wrong while reading the invoicing API. Try again; the rest of the overview is unaffected."
        }
        action={<RetryButton />}
      />
    </OverviewCard>
  );
}
