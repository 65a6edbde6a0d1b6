import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

/** The start and the Users page say plainly where people and the audit log live against a real provider. */
describe("localDataNotice", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  const notice = async (vars: Record<string, string | undefined>) => {
    vi.resetModules();
    for (const [name, value] of Object.entries({ DATABASE_URL: undefined, INVOICING_API_URL: undefined, ...vars })) vi.stubEnv(name, value);
    return (await import("./local-data")).localDataNotice();
  };

  it("names the folder when a real provider is used without DATABASE_URL", async () => {
    const said = await notice({
      INVOICING_API_URL: "https://pay.example.com/api/v1",
      INVOICING_API_KEY: "sk_live_x",
      DATA_DIR: "var/console",
    });
    expect(said).toContain("People, sessions and the audit log are kept in a local folder");
    expect(said).toContain(path.resolve("var/console"));
    expect(said).toContain("DATABASE_URL");
  });

  it("says nothing on a PostgreSQL server, nor on the embedded sandbox", async () => {
    expect(
      await notice({
        INVOICING_API_URL: "https://pay.example.com/api/v1",
        INVOICING_API_KEY: "sk_live_x",
        DATABASE_URL: "postgres://db/console",
      }),
    ).toBeNull();
    expect(await notice({})).toBeNull();
  });
});
