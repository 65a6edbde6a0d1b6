"use client";

import { type ComponentType, useEffect, useRef, useState } from "react";
import { NOT_SIGNED_IN, registerSignInAgain, type SignInAgainOutcome } from "@/lib/browser/session-ended";
import type { SignInAgainProps } from "./sign-in-again";

const load = () => import("./sign-in-again").then((m) => m.SignInAgain);

/**
 * The console layout's one "Your session ended" dialog (./sign-in-again.tsx). It is ready to ask from the
 * moment the layout hydrates (lib/browser/session-ended.ts), but its code loads after the page, not with every
 * page's first load (README: first-load JS), or when first asked. `email`: who the layout drew the page for.
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
    const shown = (SignInAgain: ComponentType<SignInAgainProps>) => setDialog((now) => now ?? { SignInAgain });
    load().then(shown, () => undefined);
    const withdraw = registerSignInAgain(
      () =>
        new Promise<SignInAgainOutcome>((resolve) => {
          settle.current = resolve;
          load().then(
            (SignInAgain) => {
              shown(SignInAgain);
              setAsking(true);
            },
            // Offline, or a new deployment: nothing is sent, and what was typed stays.
            () => resolve({ resend: false, notSent: NOT_SIGNED_IN }),
          );
        }),
    );
    return () => {
      withdraw();
      // Gone while asking (the person left the console): the change waiting for it is not sent, and not left waiting.
      settle.current?.({ resend: false, notSent: NOT_SIGNED_IN });
      settle.current = null;
    };
  }, []);

  if (!dialog) return null;
  return <dialog.SignInAgain email={email} asking={asking} onDone={done} />;
}
