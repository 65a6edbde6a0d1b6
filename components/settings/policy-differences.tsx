import { policyDifferences, type TransitionPolicy } from "@/lib/contract/transition-policy";

/** Where the policy in force differs from the defaults, in the words of its audit entries. */
export function PolicyDifferences({ policy }: { policy: TransitionPolicy }) {
  const differences = policyDifferences(policy);
  return (
    <div className="rounded-md border border-border bg-muted/40 px-4 py-3">
      <h3 className="text-sm font-medium">What differs from the defaults</h3>
      {differences.length > 0 ? (
        <ul className="mt-1.5 list-disc space-y-0.5 pl-5 text-sm text-muted-foreground" data-testid="policy-differences">
          {differences.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-sm text-muted-foreground" data-testid="policy-differences">
          This is the default policy.
        </p>
      )}
    </div>
  );
}
