// For scripts/bench/bench-audit.ts: the activity view's questions, by kind of filter, each asked with other values
// every time (a person, kinds, a month, a word…), from a seeded generator so every run asks the same ones.
import { addDays } from "@/lib/contract/time-zone";
import { seededRandom as random } from "@/test/seeded-random";
import { KIND_WEIGHTS, PEOPLE, REASON_WORDS } from "./audit-fill";

export type Case = { name: string; query: (i: number) => Record<string, string | string[]> };

export function activityCases(firstDay: string, days: number, invoices: number): Case[] {
  const r = random(42);
  const pick = <T>(values: readonly T[]) => values[Math.floor(r() * values.length)];
  const actors = [...PEOPLE.map(([email]) => email), "system"];
  const kinds = Object.keys(KIND_WEIGHTS);
  const day = (from = 0, to = days) => addDays(firstDay, from + Math.floor(r() * (to - from)));
  const month = () => {
    const after = day(0, days - 31);
    return { after, before: addDays(after, 30) };
  };
  return [
    { name: "no filter, page 1", query: (i) => ({ page_size: String([25, 50, 100][Math.abs(i) % 3]) }) },
    { name: "no filter, page ~500", query: () => ({ page: String(450 + Math.floor(r() * 100)) }) },
    { name: "one actor", query: () => ({ actor: pick(actors) }) },
    { name: "one action", query: () => ({ action: pick(kinds) }) },
    { name: "three actions", query: () => ({ action: [pick(kinds), pick(kinds), pick(kinds)].join(",") }) },
    { name: "one target (invoice id)", query: () => ({ target: `inv_${1 + Math.floor(r() * invoices)}` }) },
    { name: "one month", query: () => month() },
    {
      name: "one day",
      query: () => {
        const d = day();
        return { after: d, before: d };
      },
    },
    { name: "q, a word in reasons", query: () => ({ q: pick(REASON_WORDS) }) },
    { name: "actor + action + month", query: () => ({ actor: pick(actors), action: pick(kinds), ...month() }) },
    { name: "q + month", query: () => ({ q: pick(REASON_WORDS), ...month() }) },
    // Beyond the list: the heavier targets, a rare text, text with a person, a deep page of one person.
    { name: "one target (a person)", query: () => ({ target: `user:${pick(PEOPLE)[0]}` }) },
    { name: "q, a ticket number (rare)", query: () => ({ q: `ticket ${10_000 + Math.floor(r() * 90_000)}` }) },
    { name: "q + actor", query: () => ({ q: pick(REASON_WORDS), actor: pick(actors) }) },
    { name: "one actor, page ~200", query: () => ({ actor: pick(actors), page: String(150 + Math.floor(r() * 100)) }) },
  ];
}
