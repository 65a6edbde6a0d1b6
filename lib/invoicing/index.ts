export * from "./list-query";
export * from "./status";
export * from "./schemas";
export * from "./webhooks";
