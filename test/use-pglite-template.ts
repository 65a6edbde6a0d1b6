import { readFileSync } from "node:fs";
import { inject } from "vitest";
import { useMemoryTemplate } from "@/lib/platform/db/client";

// Before each test file: its `memory://` databases start as copies of the suite's migrated one (./pglite-template.ts).
useMemoryTemplate(new Blob([readFileSync(inject("pgliteTemplate"))]));
