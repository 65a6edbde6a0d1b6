"use client";

import dynamic from "next/dynamic";

// Asked for only after a 401, so its code (the dialog, its form) loads after hydration instead of with every
// page's first load (README: first-load JS).
export const LazySignInAgain = dynamic(() => import("./sign-in-again").then((m) => m.SignInAgain), { ssr: false });
