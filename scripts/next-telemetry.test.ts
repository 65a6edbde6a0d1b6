import { describe, expect, it } from "vitest";
// @ts-expect-error -- a plain ES module of the scripts, without type declarations
import { withTelemetryDefault } from "./next-telemetry.mjs";

describe("Next.js telemetry default", () => {
  it("is off when unset, on when asked for with 0 or false, and any other choice is kept", () => {
    expect(withTelemetryDefault({}).NEXT_TELEMETRY_DISABLED).toBe("1");
    expect(withTelemetryDefault({ NEXT_TELEMETRY_DISABLED: "" }).NEXT_TELEMETRY_DISABLED).toBe("1");
    expect(withTelemetryDefault({ NEXT_TELEMETRY_DISABLED: "0" })).not.toHaveProperty("NEXT_TELEMETRY_DISABLED");
    expect(withTelemetryDefault({ NEXT_TELEMETRY_DISABLED: "FALSE" })).not.toHaveProperty("NEXT_TELEMETRY_DISABLED");
    expect(withTelemetryDefault({ NEXT_TELEMETRY_DISABLED: "true" }).NEXT_TELEMETRY_DISABLED).toBe("true");
  });
});
