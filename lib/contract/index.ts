export * from "./export";
export * from "./list-query";
export * from "./money";
export * from "./schemas";
export * from "./search";
export * from "./status";
export * from "./typed-amount";
export * from "./webhooks";
