import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { encodeCBOR } from "@levischuck/tiny-cbor";

/**
 * A WebAuthn authenticator in software, for the server's side of passkeys in unit tests (the browser's side is
 * e2e/passkeys.spec.ts with Chromium's virtual authenticator): one P-256 key, "none" attestation, the person
 * verified. It answers the options the server made with what a browser would send back, as JSON.
 */
export function softwareAuthenticator(origin: string) {
  const rpId = new URL(origin).hostname;
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const credentialId = randomBytes(16);
  let counter = 0;
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
  const rpIdHash = createHash("sha256").update(rpId).digest();
  const clientData = (type: string, challenge: string) => Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  const flagsAndCount = (flags: number) => {
    const bytes = Buffer.alloc(5);
    bytes[0] = flags;
    bytes.writeUInt32BE(++counter, 1);
    return bytes;
  };
  // User present (0x01) and verified (0x04); 0x40: attested credential data follows.
  const UP_UV = 0x05;

  return {
    credentialId: b64(credentialId),
    register(options: { challenge: string }) {
      const cose = new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, "base64url")],
        [-3, Buffer.from(jwk.y!, "base64url")],
      ]);
      const length = Buffer.alloc(2);
      length.writeUInt16BE(credentialId.length);
      const authData = Buffer.concat([
        rpIdHash,
        flagsAndCount(UP_UV | 0x40),
        Buffer.alloc(16),
        length,
        credentialId,
        Buffer.from(encodeCBOR(cose)),
      ]);
      const attestationObject = encodeCBOR(
        new Map<string, unknown>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", authData],
        ]) as never,
      );
      return JSON.stringify({
        id: b64(credentialId),
        rawId: b64(credentialId),
        type: "public-key",
        response: {
          clientDataJSON: b64(clientData("webauthn.create", options.challenge)),
          attestationObject: b64(attestationObject),
          transports: ["internal"],
        },
        clientExtensionResults: {},
      });
    },
    authenticate(options: { challenge: string }) {
      const data = clientData("webauthn.get", options.challenge);
      const authenticatorData = Buffer.concat([rpIdHash, flagsAndCount(UP_UV)]);
      const signature = sign("sha256", Buffer.concat([authenticatorData, createHash("sha256").update(data).digest()]), privateKey);
      return JSON.stringify({
        id: b64(credentialId),
        rawId: b64(credentialId),
        type: "public-key",
        response: { clientDataJSON: b64(data), authenticatorData: b64(authenticatorData), signature: b64(signature) },
        clientExtensionResults: {},
      });
    },
  };
}
