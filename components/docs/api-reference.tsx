import { Fragment } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { inline, Markdown } from "./markdown";
import {
  Body,
  constraints,
  descriptionOf,
  Fields,
  isObject,
  JsonBlock,
  type JsonObject,
  type MediaType,
  objectOf,
  refName,
  slug,
  TypeName,
} from "./schema-view";

/**
 * The sandbox's OpenAPI document as plain, semantic HTML rendered on the server: operations grouped by tag,
 * each with its method, path, summary, parameters, request body, responses, schemas and examples. No script
 * runs and nothing loads from elsewhere, so it works before hydration and under the strict CSP, and it is
 * made of the console's own parts (so its contrast and focus rings are the console's, in both themes).
 *
 * It replaced Scalar's bundled renderer: that one's markup carried axe findings no configuration
 * reaches (unnamed section toggles, ARIA attributes its roles do not allow, a tree missing its children, 165
 * low-contrast nodes; scalar/scalar#9725), and it mounted a Vue app in the browser for a nine-operation document.
 *
 * Only the parts of OpenAPI 3.1 the document uses are read; anything else in a schema is shown as its JSON.
 */

export type OpenApiDocument = {
  info: { title: string; version: string; description?: string };
  servers?: { url: string; description?: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, unknown>>;
  components?: {
    schemas?: Record<string, unknown>;
    headers?: Record<string, unknown>;
    securitySchemes?: Record<string, unknown>;
  };
};

type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: JsonObject };
type Operation = {
  tags?: string[];
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; description?: string; content?: Record<string, MediaType> };
  responses?: Record<string, { description?: string; headers?: Record<string, JsonObject>; content?: Record<string, MediaType> }>;
  security?: unknown[];
};

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
const METHOD_TONE: Record<string, BadgeTone> = { get: "info", post: "success", put: "warning", patch: "caution", delete: "danger" };

function statusTone(status: string): BadgeTone {
  if (status.startsWith("2")) return "success";
  if (status.startsWith("4")) return "warning";
  if (status.startsWith("5")) return "danger";
  return "neutral";
}

function OperationView({
  method,
  path,
  operation,
  document,
}: {
  method: string;
  path: string;
  operation: Operation;
  document: OpenApiDocument;
}) {
  const id = `op-${slug(operation.operationId ?? `${method}-${path}`)}`;
  const parameters = operation.parameters ?? [];
  const open = Array.isArray(operation.security) && operation.security.length === 0;
  return (
    <Card className="flex flex-col gap-4 p-4 sm:p-5">
      <article aria-labelledby={id} className="flex flex-col gap-4">
        <header className="flex flex-col gap-2">
          <h3 id={id} className="scroll-mt-4 text-base font-semibold">
            {operation.summary ?? `${method.toUpperCase()} ${path}`}
          </h3>
          <p className="flex flex-wrap items-center gap-2">
            <Badge tone={METHOD_TONE[method] ?? "neutral"} className="font-mono uppercase">
              {method}
            </Badge>
            <code className="font-mono text-sm break-all">{path}</code>
            {open && <span className="text-xs text-muted-foreground">no key needed</span>}
          </p>
          {operation.description && <Markdown text={operation.description} />}
        </header>

        {parameters.length > 0 && (
          <section aria-label={`${operation.summary ?? path}: parameters`} className="flex flex-col gap-2">
            <h4 className="text-sm font-semibold">Parameters</h4>
            <ul className="divide-y divide-border rounded-md border border-border">
              {parameters.map((parameter) => {
                const schema = parameter.schema ?? {};
                const limits = constraints(schema);
                const description = parameter.description ?? descriptionOf(schema);
                return (
                  <li key={`${parameter.in}-${parameter.name}`} className="px-3 py-2">
                    <div className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
                      <code className="font-mono text-sm font-medium text-foreground">{parameter.name}</code>
                      <span className="text-xs text-muted-foreground">in {parameter.in}</span>
                      <TypeName schema={schema} />
                      {parameter.required && <span className="text-xs font-medium text-danger-text">required</span>}
                      {limits.length > 0 && <span className="text-xs text-muted-foreground">{limits.join(", ")}</span>}
                    </div>
                    {description && <Markdown text={description} className="mt-0.5 flex flex-col gap-1 text-sm text-muted-foreground" />}
                  </li>
                );
              })}
            </ul>
          </section>
        )}

        {operation.requestBody?.content && (
          <section aria-label={`${operation.summary ?? path}: request body`} className="flex flex-col gap-2">
            <h4 className="text-sm font-semibold">Request body{operation.requestBody.required ? " (required)" : ""}</h4>
            {operation.requestBody.description && <Markdown text={operation.requestBody.description} />}
            <Body content={operation.requestBody.content} />
          </section>
        )}

        {operation.responses && (
          <section aria-label={`${operation.summary ?? path}: responses`} className="flex flex-col gap-2">
            <h4 className="text-sm font-semibold">Responses</h4>
            <div className="flex flex-col gap-2">
              {Object.entries(operation.responses).map(([status, response]) => (
                <details key={status} className="group rounded-md border border-border" open={status.startsWith("2")}>
                  <summary className="flex cursor-pointer flex-wrap items-center gap-2 rounded-md px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring">
                    <Badge tone={statusTone(status)} className="font-mono">
                      {status}
                    </Badge>
                    <span className="min-w-0 flex-1 text-foreground">{inline(response.description ?? "")}</span>
                  </summary>
                  <div className="flex flex-col gap-3 border-t border-border px-3 py-3">
                    {response.headers && (
                      <ul className="flex flex-col gap-1 text-sm">
                        {Object.entries(response.headers).map(([name, header]) => {
                          const resolved = resolveHeader(header, document);
                          return (
                            <li key={name}>
                              <span className="text-xs text-muted-foreground">Header </span>
                              <code className="font-mono text-sm font-medium">{name}</code>
                              {resolved?.description && <span className="text-muted-foreground"> — {inline(resolved.description)}</span>}
                            </li>
                          );
                        })}
                      </ul>
                    )}
                    {response.content ? <Body content={response.content} /> : <p className="text-sm text-muted-foreground">No body.</p>}
                  </div>
                </details>
              ))}
            </div>
          </section>
        )}
      </article>
    </Card>
  );
}

function resolveHeader(header: JsonObject, document: OpenApiDocument): { description?: string } | undefined {
  if (typeof header.$ref === "string") {
    const found = document.components?.headers?.[refName(header.$ref)];
    return isObject(found) ? { description: typeof found.description === "string" ? found.description : undefined } : undefined;
  }
  return { description: typeof header.description === "string" ? header.description : undefined };
}

/** Every operation, by its first tag, in the document's order of tags (untagged ones last, under "Other"). */
function operationsByTag(document: OpenApiDocument) {
  const groups = new Map<string, { description?: string; operations: { method: string; path: string; operation: Operation }[] }>();
  for (const tag of document.tags ?? []) groups.set(tag.name, { description: tag.description, operations: [] });
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? "Other";
      if (!groups.has(tag)) groups.set(tag, { operations: [] });
      groups.get(tag)?.operations.push({ method, path, operation });
    }
  }
  return [...groups.entries()].filter(([, group]) => group.operations.length > 0);
}

export function ApiReference({ document }: { document: OpenApiDocument }) {
  const groups = operationsByTag(document);
  const schemas = Object.entries(document.components?.schemas ?? {}).filter((entry): entry is [string, JsonObject] => isObject(entry[1]));
  const security = Object.entries(document.components?.securitySchemes ?? {}).filter((entry): entry is [string, JsonObject] =>
    isObject(entry[1]),
  );
  return (
    <div className="grid gap-6 lg:grid-cols-[14rem_minmax(0,1fr)] lg:items-start">
      <nav aria-label="API reference contents" className="text-sm lg:sticky lg:top-4">
        <Card className="p-4">
          <h2 className="text-sm font-semibold">Contents</h2>
          <ul className="mt-2 flex flex-col gap-2">
            <li>
              <a href="#introduction" className="text-link underline-offset-4 hover:underline">
                Introduction
              </a>
            </li>
            {groups.map(([tag, group]) => (
              <li key={tag}>
                <a href={`#tag-${slug(tag)}`} className="font-medium text-link underline-offset-4 hover:underline">
                  {tag}
                </a>
                <ul className="mt-1 flex flex-col gap-1 border-l border-border pl-3">
                  {group.operations.map(({ method, path, operation }) => (
                    <li key={`${method} ${path}`}>
                      <a
                        href={`#op-${slug(operation.operationId ?? `${method}-${path}`)}`}
                        className="text-muted-foreground underline-offset-4 hover:text-foreground hover:underline"
                      >
                        {operation.summary ?? `${method.toUpperCase()} ${path}`}
                      </a>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
            {schemas.length > 0 && (
              <li>
                <a href="#schemas" className="font-medium text-link underline-offset-4 hover:underline">
                  Schemas
                </a>
              </li>
            )}
          </ul>
        </Card>
      </nav>

      <div className="flex min-w-0 flex-col gap-8">
        <section aria-labelledby="introduction" className="flex flex-col gap-3">
          <h2 id="introduction" className="scroll-mt-4 text-lg font-semibold">
            {document.info.title} <span className="text-sm font-normal text-muted-foreground">version {document.info.version}</span>
          </h2>
          {document.info.description && <Markdown text={document.info.description} />}
          {(document.servers?.length ?? 0) > 0 && (
            <p className="text-sm text-muted-foreground">
              Base URL:{" "}
              {document.servers?.map((server, i) => (
                <Fragment key={server.url}>
                  {i > 0 && ", "}
                  <code className="font-mono text-foreground">{server.url}</code>
                  {server.description && ` (${server.description})`}
                </Fragment>
              ))}
            </p>
          )}
          {security.map(([name, scheme]) => (
            <p key={name} className="text-sm text-muted-foreground">
              Authentication: {scheme.type === "apiKey" ? "an API key in the " : `${String(scheme.type)} `}
              {scheme.type === "apiKey" && (
                <>
                  <code className="font-mono text-foreground">{String(scheme.name)}</code> {String(scheme.in)}.{" "}
                </>
              )}
              {typeof scheme.description === "string" && inline(scheme.description)}
            </p>
          ))}
        </section>

        {groups.map(([tag, group]) => (
          <section key={tag} aria-labelledby={`tag-${slug(tag)}`} className="flex flex-col gap-3">
            <h2 id={`tag-${slug(tag)}`} className="scroll-mt-4 text-lg font-semibold">
              {tag}
            </h2>
            {group.description && <Markdown text={group.description} />}
            {group.operations.map(({ method, path, operation }) => (
              <OperationView key={`${method} ${path}`} method={method} path={path} operation={operation} document={document} />
            ))}
          </section>
        ))}

        {schemas.length > 0 && (
          <section aria-labelledby="schemas" className="flex flex-col gap-3">
            <h2 id="schemas" className="scroll-mt-4 text-lg font-semibold">
              Schemas
            </h2>
            {schemas.map(([name, schema]) => (
              <Card key={name} className="flex flex-col gap-2 p-4 sm:p-5">
                <h3 id={`schema-${slug(name)}`} className="scroll-mt-4 font-mono text-base font-semibold">
                  {name}
                </h3>
                {typeof schema.description === "string" && <Markdown text={schema.description} />}
                {objectOf(schema) ? <Fields schema={schema} /> : <JsonBlock value={schema} label="JSON Schema" />}
              </Card>
            ))}
          </section>
        )}
      </div>
    </div>
  );
}
