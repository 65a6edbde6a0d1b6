/** Calendar days in UTC: the embedded sandbox's own rollups (lib/sandbox/invoice-counts.ts). The console counts days in its time zone (lib/contract/time-zone.ts). */

/** The UTC midnight that starts the day of `t`, in milliseconds since the epoch. */
export const utcMidnight = (t: number | Date): number => new Date(t).setUTCHours(0, 0, 0, 0);

/** The UTC day of `t` as YYYY-MM-DD. */
export const isoDay = (t: number | Date): string => new Date(t).toISOString().slice(0, 10);
