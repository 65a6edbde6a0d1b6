import { CircleAlert } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import { MessageBlock } from "./message-block";

type ProblemStateProps = Omit<ComponentProps<typeof MessageBlock>, "title" | "description"> & {
  /** A problem (lib/contract/problem.ts) or any error with a title; its title and detail are shown as they are. */
  problem?: { title?: string; detail?: string | null; message?: string } | null;
  /** Overrides the problem's title, or stands alone. */
  title?: ReactNode;
  /** Overrides the problem's detail, or stands alone. */
  detail?: ReactNode;
  /** A server error's digest, so a person can quote it to an administrator. */
  reference?: string;
};

/**
 * Something went wrong: what happened (title), why (detail) and what to do (action). Announced as an alert,
 * because it replaces content the person was waiting for.
 */
export function ProblemState({ problem, title, detail, reference, icon = <CircleAlert />, ...props }: ProblemStateProps) {
  const shownDetail = detail ?? problem?.detail ?? (problem && !problem.title ? problem.message : undefined);
  return (
    <MessageBlock
      role="alert"
      icon={icon}
      title={title ?? problem?.title ?? "Something went wrong"}
      description={
        shownDetail || reference ? (
          <>
            {shownDetail && <p>{shownDetail}</p>}
            {reference && <p className="mt-2 font-mono text-xs">Reference {reference}</p>}
          </>
        ) : undefined
      }
      {...props}
    />
  );
}
