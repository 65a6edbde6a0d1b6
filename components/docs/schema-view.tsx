import { Markdown } from "./markdown";

// A JSON schema of the document as a person reads it: its type, its rules, its fields, its examples.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type MediaType = { schema?: JsonObject; example?: Json };

/** An anchor id for a heading or a schema. */
export const slug = (text: string) => text.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "");
export const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);
export const refName = (ref: string) => ref.split("/").pop() ?? ref;

function typeOf(schema: JsonObject): string {
  if (typeof schema.$ref === "string") return refName(schema.$ref);
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return `one of: ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (Array.isArray(variants)) return variants.filter(isObject).map(typeOf).join(" | ");
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : typeof schema.type === "string" ? schema.type : "any";
  if (type === "array" && isObject(schema.items)) return `array of ${typeOf(schema.items)}`;
  return typeof schema.format === "string" ? `${type} (${schema.format})` : type;
}

/** The limits a schema states, in words. */
export function constraints(schema: JsonObject): string[] {
  const said: string[] = [];
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  const own = Array.isArray(variants) ? variants.filter(isObject).filter((v) => v.type !== "null") : [schema];
  for (const s of own.length === 1 ? own : []) {
    if (typeof s.minimum === "number" && Math.abs(s.minimum) < 1e15) said.push(`≥ ${s.minimum}`);
    if (typeof s.maximum === "number" && Math.abs(s.maximum) < 1e15) said.push(`≤ ${s.maximum}`);
    if (typeof s.minLength === "number" && s.minLength > 0) said.push(`at least ${s.minLength} characters`);
    if (typeof s.maxLength === "number") said.push(`at most ${s.maxLength} characters`);
    if (typeof s.minItems === "number" && s.minItems > 0) said.push(`at least ${s.minItems} items`);
    if (typeof s.maxItems === "number") said.push(`at most ${s.maxItems} items`);
  }
  if ("default" in schema) said.push(`default ${JSON.stringify(schema.default)}`);
  return said;
}

/** The object a schema describes (through `anyOf` with null, or an array's items), to list its fields. */
export function objectOf(schema: JsonObject): JsonObject | undefined {
  if (isObject(schema.properties)) return schema;
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (Array.isArray(variants)) {
    const objects = variants.filter(isObject).filter((v) => isObject(v.properties));
    if (objects.length === 1) return objects[0];
  }
  if (schema.type === "array" && isObject(schema.items) && isObject(schema.items.properties)) return schema.items;
  return undefined;
}

export function descriptionOf(schema: JsonObject): string | undefined {
  if (typeof schema.description === "string") return schema.description;
  const variants = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  const described = Array.isArray(variants) ? variants.filter(isObject).find((v) => typeof v.description === "string") : undefined;
  return described?.description as string | undefined;
}

/** A schema's type, linking to the document's named schema when it is one. */
export function TypeName({ schema }: { schema: JsonObject }) {
  const ref =
    typeof schema.$ref === "string"
      ? schema.$ref
      : isObject(schema.items) && typeof schema.items.$ref === "string"
        ? schema.items.$ref
        : null;
  const text = typeOf(schema);
  if (!ref) return <span className="font-mono text-xs break-words text-muted-foreground">{text}</span>;
  const name = refName(ref);
  const [before, after] = text.split(name);
  return (
    <span className="font-mono text-xs text-muted-foreground">
      {before}
      <a href={`#schema-${slug(name)}`} className="text-link underline underline-offset-4">
        {name}
      </a>
      {after}
    </span>
  );
}

/** An object's fields as a nested list: name, type, required, limits, description; nested objects below. */
export function Fields({ schema, depth = 0 }: { schema: JsonObject; depth?: number }) {
  const object = objectOf(schema);
  if (!object || !isObject(object.properties)) return null;
  const required = new Set(Array.isArray(object.required) ? object.required : []);
  return (
    <ul className={depth === 0 ? "divide-y divide-border rounded-md border border-border" : "mt-2 border-l-2 border-border pl-3"}>
      {Object.entries(object.properties).map(([name, value]) => {
        if (!isObject(value)) return null;
        const limits = constraints(value);
        const description = descriptionOf(value);
        return (
          <li key={name} className={depth === 0 ? "px-3 py-2" : "py-1.5"}>
            <div className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
              <code className="font-mono text-sm font-medium break-all text-foreground">{name}</code>
              <TypeName schema={value} />
              {required.has(name) && <span className="text-xs font-medium text-danger-text">required</span>}
              {limits.length > 0 && <span className="text-xs text-muted-foreground">{limits.join(", ")}</span>}
            </div>
            {description && <Markdown text={description} className="mt-0.5 flex flex-col gap-1 text-sm text-muted-foreground" />}
            {depth < 4 && !value.$ref && <Fields schema={value} depth={depth + 1} />}
          </li>
        );
      })}
    </ul>
  );
}

/** An example or a schema without fields, as JSON: wrapped, so it never scrolls sideways. */
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  return (
    <figure className="flex flex-col gap-1">
      <figcaption className="text-xs font-medium text-muted-foreground">{label}</figcaption>
      <pre className="rounded-md border border-border bg-muted p-3 font-mono text-xs leading-relaxed break-all whitespace-pre-wrap text-foreground">
        {JSON.stringify(value, null, 2)}
      </pre>
    </figure>
  );
}

export function Body({ content }: { content: Record<string, MediaType> }) {
  return (
    <>
      {Object.entries(content).map(([mediaType, media]) => (
        <div key={mediaType} className="flex flex-col gap-2">
          <p className="text-xs text-muted-foreground">
            <code className="font-mono">{mediaType}</code>
            {media.schema && (
              <>
                {" · "}
                <TypeName schema={media.schema} />
              </>
            )}
          </p>
          {media.schema && !media.schema.$ref && objectOf(media.schema) && <Fields schema={media.schema} />}
          {media.example !== undefined && <JsonBlock value={media.example} label="Example" />}
        </div>
      ))}
    </>
  );
}
