import type { ComponentProps } from "react";
import { DAY_FORMAT, TIME_FORMAT } from "./date-format";
import { Input } from "./input";

export { DAY_FORMAT, TIME_FORMAT };

type Props = Omit<ComponentProps<typeof Input>, "type" | "pattern" | "placeholder" | "min" | "max">;

/**
 * A day typed as YYYY-MM-DD. Not <input type="date">: it draws the day in the browser's own locale (mm/dd/yyyy
 * beside the console's "28 Oct 2026"); the text a form sends is the same either way, so no script is needed.
 */
export function DateInput(props: Props) {
  return (
    <Input
      type="text"
      placeholder={DAY_FORMAT}
      pattern="\d{4}-\d{2}-\d{2}"
      maxLength={10}
      autoComplete="off"
      spellCheck={false}
      {...props}
    />
  );
}

/** A time of day typed as 24-hour HH:MM, the way the console writes times (never AM/PM by the browser's locale). */
export function TimeInput(props: Props) {
  return (
    <Input type="text" placeholder={TIME_FORMAT} pattern="\d{2}:\d{2}" maxLength={5} autoComplete="off" spellCheck={false} {...props} />
  );
}
