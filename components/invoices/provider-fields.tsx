import type { ProviderField } from "@/lib/invoicing";

/**
 * Every field the provider sent that the console has no place for, as key and value: a support person may
 * need it, and the console must not hide what it does not understand. Nested values as readable JSON.
 */
export function ProviderFields({ fields }: { fields: ProviderField[] }) {
  if (fields.length === 0) {
    return <p className="text-sm text-zinc-600">The invoicing API sent nothing beyond the fields shown above.</p>;
  }
  return (
    <dl className="divide-y divide-zinc-100">
      {fields.map(({ key, value }) => (
        <div key={key} className="grid grid-cols-3 gap-4 py-2 text-sm">
          <dt className="font-mono text-xs break-all text-zinc-600">{key}</dt>
          <dd className="col-span-2 text-zinc-900">
            <ProviderValue value={value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function ProviderValue({ value }: { value: unknown }) {
  if (value === null) return <span className="text-zinc-400">null</span>;
  if (typeof value === "string") return <span className="break-all whitespace-pre-wrap">{value === "" ? <span className="text-zinc-400">(empty)</span> : value}</span>;
  if (typeof value === "number" || typeof value === "boolean") return <span className="font-mono text-xs tabular-nums">{String(value)}</span>;
  return <pre className="max-h-64 overflow-auto rounded bg-zinc-50 p-2 font-mono text-xs whitespace-pre-wrap break-all text-zinc-800">{JSON.stringify(value, null, 2)}</pre>;
}
