import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships a WASM build of PostgreSQL and pg has optional native bindings: load both from node_modules
  // at run time instead of bundling them.
  serverExternalPackages: ["@electric-sql/pglite", "pg"],
  poweredByHeader: false,
};

export default nextConfig;
