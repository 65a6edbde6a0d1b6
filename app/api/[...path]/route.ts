import { noSuchEndpoint } from "@/lib/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = noSuchEndpoint("The console's API");
