import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships a WASM build of PostgreSQL and pg has optional native bindings: loaded from node_modules at run
  // time instead of bundled. So is drizzle-orm: bundled, it was copied into several chunks, and a row read through
  // one copy's classes took the slow path of its entity checks for every column.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "drizzle-orm"],
  poweredByHeader: false,
  // forbidden(): a page a role may not see answers 403 with app/(console)/forbidden.tsx (lib/console/bff/page.ts).
  experimental: { authInterrupts: true },
  // The words people type for the sign-in page lead to it (signed out, they would sign in and land on a 404).
  async redirects() {
    return ["/sign-in", "/signin"].map((source) => ({ source, destination: "/login", permanent: false }));
  },
  // Static files skip proxy.ts; they get the headers that do not depend on the request here.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
};

export default nextConfig;
