"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { CopyButton } from "@/components/ui/copy-button";
import { DateTime } from "@/components/ui/date-time";
import {
  ConfirmDialog,
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/lazy-dialog";
import { Notice } from "@/components/ui/notice";
import { runAction } from "@/lib/browser/action";
import { issueResetLinkAction, type LinkActionState } from "@/lib/console/users/actions";
import { problemDetail } from "@/lib/contract/problem";

type IssuedLink = NonNullable<LinkActionState["link"]>;

/**
 * A one-time link as its admin sees it, once: the address to hand over, a Copy button, until when it works, and
 * whether it was emailed. Only the person it is for chooses the password with it.
 */
export function IssuedLinkDetails({ link }: { link: IssuedLink }) {
  return (
    <div className="flex flex-col gap-2 text-sm">
      <div className="flex items-start gap-2 rounded-md border border-border bg-muted px-2 py-1.5">
        <code data-testid="issued-link" className="min-w-0 flex-1 font-mono text-xs break-all text-foreground">
          {link.url}
        </code>
        <CopyButton value={link.url} label="Copy link" />
      </div>
      <p className="text-xs text-muted-foreground">
        Works once, until <DateTime iso={link.expiresAt} />. It is shown only now.
      </p>
      {link.emailedTo ? (
        <p className="text-xs text-success-text">Emailed to {link.emailedTo}.</p>
      ) : link.emailError ? (
        <p role="alert" className="text-xs text-danger-text">
          Could not email it: {link.emailError}. Send them the link yourself.
        </p>
      ) : (
        <p className="text-xs text-muted-foreground">Send it to them yourself, privately.</p>
      )}
    </div>
  );
}

/** Issues a password reset link for someone after asking, then shows it once. */
export function ResetLinkButton({ email }: { email: string }) {
  const [issued, setIssued] = useState<IssuedLink>();
  const [takenBack, setTakenBack] = useState<string>();
  const [takeBack, setTakeBack] = useState(false);
  const [error, setError] = useState<string>();
  return (
    <>
      <ConfirmDialog
        trigger={
          <Button size="sm" variant="ghost" aria-label={`Reset password of ${email}`}>
            Reset password
          </Button>
        }
        title={`Issue a password reset link for ${email}?`}
        description="With it they choose a new password, once. When they do, every session they have ends. Their current password works until then, and any earlier link of theirs stops working now."
        confirmLabel="Issue link"
        pendingLabel="Issuing…"
        onOpenChange={() => {
          setError(undefined);
          setTakeBack(false);
        }}
        // Focus goes to the link's dialog, which opens as this one closes.
        onCloseAutoFocus={(event) => issued && event.preventDefault()}
        onConfirm={async () => {
          const form = new FormData();
          form.set("email", email);
          if (takeBack) form.set("take_back", "on");
          const { answer, problem } = await runAction(issueResetLinkAction, form);
          if (problem || !answer.link) {
            setError(problem ? problemDetail(problem) : "No link came back.");
            return false;
          }
          setTakenBack(answer.takenBack);
          setIssued(answer.link);
        }}
      >
        <label htmlFor={`take-back-${email}`} className="flex items-start gap-2 text-sm">
          <Checkbox
            id={`take-back-${email}`}
            className="mt-0.5"
            checked={takeBack}
            onChange={(event) => setTakeBack(event.target.checked)}
          />
          <span>
            Someone else may have used this account
            <span className="block text-xs text-muted-foreground">
              Their current password stops working now, their passkeys and authenticator app are removed, and every session ends. A passkey
              signs in on its own: a new password alone would leave it working.
            </span>
          </span>
        </label>
        {error && (
          <Notice role="alert" tone="danger">
            {error}
          </Notice>
        )}
      </ConfirmDialog>
      <Dialog open={!!issued} onOpenChange={(open) => !open && setIssued(undefined)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Password reset link for {email}</DialogTitle>
            <DialogDescription>Give it to them; they choose their new password with it.</DialogDescription>
          </DialogHeader>
          {takenBack && <Notice tone="neutral">{takenBack}</Notice>}
          {issued && <IssuedLinkDetails link={issued} />}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="primary">Done</Button>
            </DialogClose>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}
