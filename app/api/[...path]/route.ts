import { noSuchEndpoint } from "@/lib/http-methods";

export const { GET, POST, PUT, PATCH, DELETE } = noSuchEndpoint("The console's API");
