import type { SelectHTMLAttributes } from "react";

type Option = { value: string; label: string };

/** A labelled native select: keyboard and screen-reader behaviour come from the browser. */
export function SelectField({
  label,
  options,
  className = "",
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; options: Option[] }) {
  return (
    <label className={`flex flex-col gap-1 text-xs font-medium text-zinc-600 ${className}`}>
      {label}
      <select
        className="h-9 rounded-md border border-zinc-300 bg-white pr-8 pl-2.5 text-sm font-normal text-zinc-900 shadow-xs"
        {...props}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
