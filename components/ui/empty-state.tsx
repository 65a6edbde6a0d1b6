import type { ComponentProps } from "react";
import { MessageBlock } from "./message-block";

/** Nothing to show, why, and what to do about it: `<EmptyState title description action icon />`. */
export function EmptyState(props: ComponentProps<typeof MessageBlock>) {
  return <MessageBlock {...props} />;
}
