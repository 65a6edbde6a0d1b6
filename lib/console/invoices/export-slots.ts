import "server-only";
import { Problem } from "@/lib/contract/problem";

/** Seconds a refused export is asked to wait: about how long a typical export of the demo data takes. */
export const EXPORT_RETRY_SECONDS = 10;

/**
 * Exports streaming at once on this instance, per person and in all. A download holds no front-door
 * place once its headers are out (scripts/server/server.mjs), so without this one person could open hundreds and
 * starve everybody's calls to the invoicing API.
 */
export function createExportSlots(limits: { perPerson: number; total: number }) {
  const byPerson = new Map<string, number>();
  let total = 0;
  return {
    /** A slot for this person's export, given back exactly once by the function returned; or a 429 problem. */
    take(personId: string): () => void {
      const own = byPerson.get(personId) ?? 0;
      if (own >= limits.perPerson) {
        throw refused(
          `You already have ${own} export${own === 1 ? "" : "s"} running, the most one person may have at once. Wait for one to finish, then export again.`,
        );
      }
      if (total >= limits.total) {
        throw refused(`${total} exports are running on the console, the most it takes at once. Try again in a few seconds.`);
      }
      byPerson.set(personId, own + 1);
      total += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        total -= 1;
        const left = (byPerson.get(personId) ?? 1) - 1;
        if (left > 0) byPerson.set(personId, left);
        else byPerson.delete(personId);
      };
    },
    get running() {
      return total;
    },
  };
}

const refused = (detail: string) => Problem.of("too_many_exports", { detail, headers: { "retry-after": String(EXPORT_RETRY_SECONDS) } });

/** The stream, handing `release` back once it has ended, failed or been cancelled by its reader. */
export function releasedWhenDone(stream: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            release();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          release();
          controller.error(error);
        }
      },
      async cancel(reason) {
        release();
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
