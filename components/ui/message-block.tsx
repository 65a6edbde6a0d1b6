import type { ComponentProps, ReactNode } from "react";
import { cn } from "@/lib/browser/cn";

type MessageBlockProps = Omit<ComponentProps<"div">, "title"> & {
  /** Replaces the block's room above and below (py-14), so a block inside a card gives its own py-*. */
  className?: string;
  icon?: ReactNode;
  title: ReactNode;
  /** The heading level when the block is the page's main message (a 404, an error page); otherwise a <p>. */
  headingLevel?: 1 | 2;
  description?: ReactNode;
  action?: ReactNode;
};

/**
 * The centred "icon, title, a sentence, what to do" block the issue found written four times. EmptyState and
 * ProblemState give it meaning; use those.
 */
export function MessageBlock({ icon, title, headingLevel, description, action, className, children, ...props }: MessageBlockProps) {
  const Title = headingLevel === 1 ? "h1" : headingLevel === 2 ? "h2" : "p";
  return (
    <div className={cn("mx-auto flex max-w-lg flex-col items-center gap-3 px-6 text-center", className ?? "py-14")} {...props}>
      {icon && <div className="grid size-10 place-items-center rounded-full bg-muted text-muted-foreground [&_svg]:size-5">{icon}</div>}
      <Title className={cn("font-semibold text-foreground", headingLevel === 1 ? "text-xl" : "text-base")}>{title}</Title>
      {description && <div className="text-sm text-muted-foreground">{description}</div>}
      {children}
      {action && <div className="mt-1 flex flex-wrap items-center justify-center gap-2">{action}</div>}
    </div>
  );
}
