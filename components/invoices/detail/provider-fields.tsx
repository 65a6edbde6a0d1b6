import { DescriptionItem, DescriptionList } from "@/components/ui/description-list";
import type { ProviderField } from "@/lib/contract";

/**
 * Every field the provider sent that the console has no place for, as key and value: a support person may
 * need it, and the console must not hide what it does not understand. Nested values as readable JSON.
 */
export function ProviderFields({ fields }: { fields: ProviderField[] }) {
  if (fields.length === 0) {
    return <p className="text-sm text-muted-foreground">The invoicing API sent nothing beyond the fields shown above.</p>;
  }
  return (
    <DescriptionList>
      {fields.map(({ key, value }) => (
        <DescriptionItem key={key} label={key} labelClassName="font-mono text-xs break-all">
          <ProviderValue value={value} />
        </DescriptionItem>
      ))}
    </DescriptionList>
  );
}

function ProviderValue({ value }: { value: unknown }) {
  if (value === null) return <span className="text-muted-foreground">null</span>;
  if (typeof value === "string")
    return (
      <span className="break-all whitespace-pre-wrap">{value === "" ? <span className="text-muted-foreground">(empty)</span> : value}</span>
    );
  if (typeof value === "number" || typeof value === "boolean")
    return <span className="font-mono text-xs tabular-nums">{String(value)}</span>;
  return (
    <pre className="max-h-64 overflow-auto rounded bg-muted p-2 font-mono text-xs break-all whitespace-pre-wrap">
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}
