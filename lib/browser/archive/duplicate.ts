import { pointerToField } from "@/lib/contract/problem-to-fields";

type ProblemLike = {
  status: number;
  code?: string;
  detail?: string | null;
  errors?: readonly { pointer?: string | null; code?: string | null; detail?: string | null }[] | null;
};

const SAYS_DUPLICATE = /already (been )?(recorded|exists?|taken|used|archived)|duplicate|not unique|must be unique|exists already/i;

/**
 * Whether a refusal of POST /archived means "this order is already recorded": what a re-upload of the same
 * file meets for every row that went through before. Our sandbox says so with the code `duplicate_order_id`
 * on `/order_id`; another provider may answer 409, or a 422 on the order id in its own words.
 */
export function isAlreadyRecorded(problem: ProblemLike): boolean {
  if (problem.status === 409) return true;
  if (problem.status !== 422) return false;
  const onOrder = (problem.errors ?? []).filter((e) => pointerToField(e.pointer) === "order_id");
  if (onOrder.some((e) => /duplicate|taken|exists|unique/i.test(e.code ?? "") || SAYS_DUPLICATE.test(e.detail ?? ""))) return true;
  // A provider whose errors name no field: only its message can tell.
  return (problem.errors ?? []).length === 0 && SAYS_DUPLICATE.test(problem.detail ?? "");
}
