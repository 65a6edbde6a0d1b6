// What Vitest's global setup hands each test file (test/pglite-template.ts).
declare module "vitest" {
  export interface ProvidedContext {
    /** A tar of a migrated PGlite data folder. */
    pgliteTemplate: string;
  }
}

export {};
