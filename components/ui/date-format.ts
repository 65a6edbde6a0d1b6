/** How a person types a day or a time here: the form of the address bar, the exports and every message. */
export const DAY_FORMAT = "YYYY-MM-DD";
export const TIME_FORMAT = "HH:MM";
