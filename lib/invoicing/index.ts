export * from "./list-query";
export * from "./status";
export * from "./schemas";
export * from "./webhooks";
export * from "./export";
export * from "./search";
export * from "./money";
export * from "./typed-amount";
