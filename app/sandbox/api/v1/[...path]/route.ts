import { noSuchEndpoint } from "@/lib/http-methods";

export const { GET, POST, PUT, PATCH, DELETE } = noSuchEndpoint("The sandbox's API");
