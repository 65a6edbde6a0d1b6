import { health } from "@/lib/health";

export const GET = health;
