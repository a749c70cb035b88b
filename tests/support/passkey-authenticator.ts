import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator (ES256, "none" attestation, discoverable credentials, user
 * verified) for HTTP tests: it answers the options the shop sends as a browser and a security key
 * would, signing with a real P-256 key the server checks like any other.
 */
interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  x: Buffer;
  y: Buffer;
  userHandle: string;
  counter: number;
}

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export class SoftwareAuthenticator {
  readonly credentials: Credential[] = [];
  private readonly origin: string;
  constructor(origin: string) {
    this.origin = origin;
  }

  /** navigator.credentials.create() for the shop's registration options. */
  create(options: { challenge: string; rp: { id?: string }; user: { id: string } }, { verifyUser = true } = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const credential: Credential = {
      id: randomBytes(32),
      privateKey,
      x: Buffer.from(jwk.x!, 'base64url'),
      y: Buffer.from(jwk.y!, 'base64url'),
      userHandle: options.user.id,
      counter: 0,
    };
    this.credentials.push(credential);
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, new Uint8Array(credential.x)],
      [-3, new Uint8Array(credential.y)],
    ]);
    const attested = Buffer.concat([
      Buffer.alloc(16), // AAGUID
      u16(credential.id.length),
      credential.id,
      Buffer.from(isoCBOR.encode(cose)),
    ]);
    const authData = Buffer.concat([
      rpIdHash(options.rp.id!),
      Buffer.from([UP | AT | (verifyUser ? UV : 0)]),
      u32(credential.counter),
      attested,
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    const id = credential.id.toString('base64url');
    return {
      id,
      rawId: id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['usb'],
      },
    };
  }

  /** navigator.credentials.get() for the shop's sign-in options, with a credential this authenticator holds. */
  get(
    options: { challenge: string; rpId?: string },
    { credential = this.credentials[0]!, counterStep = 1, origin = this.origin } = {},
  ) {
    credential.counter += counterStep;
    const authData = Buffer.concat([rpIdHash(options.rpId!), Buffer.from([UP | UV]), u32(credential.counter)]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, origin);
    const signed = Buffer.concat([authData, createHash('sha256').update(Buffer.from(clientDataJSON, 'base64url')).digest()]);
    const id = credential.id.toString('base64url');
    return {
      id,
      rawId: id,
      type: 'public-key',
      clientExtensionResults: {},
      response: {
        clientDataJSON,
        authenticatorData: authData.toString('base64url'),
        signature: sign('sha256', signed, credential.privateKey).toString('base64url'),
        userHandle: credential.userHandle,
      },
    };
  }

  private clientData(type: string, challenge: string, origin = this.origin): string {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })).toString('base64url');
  }
}

function rpIdHash(rpId: string): Buffer {
  return createHash('sha256').update(rpId).digest();
}

function u16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16BE(value);
  return buffer;
}

function u32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}
