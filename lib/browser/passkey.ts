import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";

export { browserSupportsWebAuthn };

/** The browser's passkey prompt, answered as the JSON text the server's action reads, or a sentence saying why not. */
export type Ceremony = { response: string; error?: never } | { response?: never; error: string };

export async function createPasskey(optionsJSON: PublicKeyCredentialCreationOptionsJSON): Promise<Ceremony> {
  try {
    return { response: JSON.stringify(await startRegistration({ optionsJSON })) };
  } catch (error) {
    if (errorName(error) === "InvalidStateError") return { error: "This device already holds a passkey for your account." };
    return { error: ceremonyError(error, "The passkey was not added") };
  }
}

export async function getPasskeyAssertion(optionsJSON: PublicKeyCredentialRequestOptionsJSON): Promise<Ceremony> {
  try {
    return { response: JSON.stringify(await startAuthentication({ optionsJSON })) };
  } catch (error) {
    return { error: ceremonyError(error, "You were not signed in") };
  }
}

function errorName(error: unknown): string | undefined {
  // SimpleWebAuthn's WebAuthnError keeps the browser's DOMException as its cause.
  const cause = (error as { cause?: unknown })?.cause;
  return (cause as { name?: string } | undefined)?.name ?? (error as { name?: string } | undefined)?.name;
}

function ceremonyError(error: unknown, what: string): string {
  const name = errorName(error);
  if (name === "NotAllowedError" || name === "AbortError") return `${what}: the request was cancelled or timed out. Try again.`;
  if (name === "SecurityError") return `${what}: this browser refuses passkeys for this address. Open the console at its usual address.`;
  return `${what}: your browser or device could not use a passkey here.`;
}
