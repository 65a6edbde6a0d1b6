import { noSuchEndpoint } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = noSuchEndpoint("The sandbox's API");
