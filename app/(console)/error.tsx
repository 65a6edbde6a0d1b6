"use client";

import dynamic from "next/dynamic";

// Every console page carries its error boundary in its first load; what the boundary shows (and the parts it
// shows it with) loads only when a page has failed.
const ConsoleError = dynamic(() => import("@/components/console-error").then((m) => m.ConsoleError));

export default ConsoleError;
