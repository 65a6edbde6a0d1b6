/** Calendar days in UTC, as the list's created ranges, the overview's periods and the sandbox's rollup count them. */

/** The UTC midnight that starts the day of `t`, in milliseconds since the epoch. */
export const utcMidnight = (t: number | Date): number => new Date(t).setUTCHours(0, 0, 0, 0);

/** The UTC day of `t` as YYYY-MM-DD. */
export const isoDay = (t: number | Date): string => new Date(t).toISOString().slice(0, 10);
