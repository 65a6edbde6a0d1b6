export * from "./status";
export * from "./schemas";
