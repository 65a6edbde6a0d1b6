import { Notice } from "./notice";

/** A form action's last answer, said once above the form: its failure as an alert, its success as a status. */
export function ActionOutcome({ state }: { state: { ok?: string; error?: string } }) {
  return (
    <>
      {state.error && (
        <Notice role="alert" tone="danger">
          {state.error}
        </Notice>
      )}
      {state.ok && (
        <Notice role="status" tone="success">
          {state.ok}
        </Notice>
      )}
    </>
  );
}
