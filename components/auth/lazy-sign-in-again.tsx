"use client";

import { type ComponentType, useEffect, useRef, useState } from "react";
import { NOT_SIGNED_IN, registerSignInAgain, type SignInAgainOutcome } from "@/lib/browser/session-ended";
import type { SignInAgainProps } from "./sign-in-again";

const load = () => import("./sign-in-again").then((m) => m.SignInAgain);

/**
 * The console layout's one "Your session ended" dialog (./sign-in-again.tsx). It is ready to ask from the
 * moment the layout hydrates (lib/browser/session-ended.ts); its code is fetched then too, in a chunk of its own
 * rather than with every page's first load (README: first-load JS). `email`: who the layout drew the page for.
 */
export function LazySignInAgain({ email }: { email: string }) {
  const [dialog, setDialog] = useState<{ SignInAgain: ComponentType<SignInAgainProps> } | null>(null);
  const [asking, setAsking] = useState(false);
  const settle = useRef<((outcome: SignInAgainOutcome) => void) | null>(null);

  function done(outcome: SignInAgainOutcome) {
    setAsking(false);
    settle.current?.(outcome);
    settle.current = null;
  }

  useEffect(() => {
    const setLoaded = (SignInAgain: ComponentType<SignInAgainProps>) => setDialog((now) => now ?? { SignInAgain });
    load().then(setLoaded, () => undefined);
    const withdraw = registerSignInAgain(
      () =>
        new Promise<SignInAgainOutcome>((resolve) => {
          settle.current = resolve;
          load().then(
            (SignInAgain) => {
              setLoaded(SignInAgain);
              setAsking(true);
            },
            // Offline, or a new deployment: nothing is sent, and what was typed stays.
            () => resolve({ signedInAs: null, whyNotSent: NOT_SIGNED_IN }),
          );
        }),
    );
    return () => {
      withdraw();
      // Gone while asking (the person left the console): the change waiting for it is not sent, and not left waiting.
      settle.current?.({ signedInAs: null, whyNotSent: NOT_SIGNED_IN });
      settle.current = null;
    };
  }, []);

  if (!dialog) return null;
  return <dialog.SignInAgain email={email} asking={asking} onDone={done} />;
}
