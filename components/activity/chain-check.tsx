import Link from "next/link";
import { Notice } from "@/components/ui/notice";
import type { ChainVerification } from "@/lib/contract/activity";
import { formatCount } from "@/lib/contract/format";

/** The log's proof, on demand: how many entries verify, the newest one's hash to keep, or the first that does not. */
export function ChainCheck({ result, verifyHref }: { result: ChainVerification | null; verifyHref: string }) {
  if (!result) {
    return (
      <p className="text-sm text-muted-foreground">
        <Link href={verifyHref} className="font-medium text-foreground underline underline-offset-2">
          Verify the log
        </Link>{" "}
        — recompute every entry's hash and check nothing was changed or removed in between.
      </p>
    );
  }
  if (result.first_broken) {
    return (
      <Notice role="alert" tone="danger" data-testid="chain-check">
        The log does not verify: entry #{result.first_broken.seq} ({result.first_broken.at}) is not as it was written, or the entry before
        it was removed. {formatCount(result.verified)} entries before it verify.
      </Notice>
    );
  }
  return (
    <Notice role="status" tone="success" data-testid="chain-check">
      {formatCount(result.verified)} entries verified.
      {result.head && (
        <>
          {" "}
          Newest: #{result.head.seq}, hash <code className="font-mono text-xs break-all">{result.head.hash}</code> — keep it to check later
          that nothing was removed from the end.
        </>
      )}
    </Notice>
  );
}
