import { z } from "zod";
import { ORDER_ID_MAX } from "./archived-request";

/** Order ids a preview asks about at once: a query string stays well under any server's limit. */
export const RECORDED_CHECK_MAX = 100;

/**
 * GET /api/archived?order_id=…&order_id=…: which of these order ids the console already knows an invoice for,
 * so an import's preview says which rows would be refused as already recorded before anything is sent.
 */
export const recordedCheckQuerySchema = z.object({
  order_id: z
    .array(
      z
        .string()
        .trim()
        .min(1, { error: "must not be empty" })
        .max(ORDER_ID_MAX, { error: `must be at most ${ORDER_ID_MAX} characters` }),
    )
    .min(1, { error: "is required: one or more order ids" })
    .max(RECORDED_CHECK_MAX, { error: `must name at most ${RECORDED_CHECK_MAX} order ids` }),
});

export const recordedCheckSchema = z.object({ recorded: z.array(z.string()) });
export type RecordedCheck = z.infer<typeof recordedCheckSchema>;
