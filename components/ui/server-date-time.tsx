import { Time } from "@/components/invoices/time";
import { requestTimeZone } from "@/lib/console/time-zone-server";

/**
 * DateTime (date-time.tsx) for a server component: the same markup, in the request's zone, with no script. A
 * page's times never change once drawn, so only a client component needs the hook-based one.
 */
export async function ServerDateTime({ iso }: { iso: string | null | undefined }) {
  return <Time iso={iso} timeZone={(await requestTimeZone()).timeZone} />;
}
